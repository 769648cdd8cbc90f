import { faultStatus, type InjectedFault, retryAfterOf } from "../faults/fault-error.js";
import { pacedBody } from "../faults/paced-body.js";

/**
 * The response an HTTP mock's fault gives instead of its outcome: a 429 with `Retry-After`, a 5xx (503 for
 * `overloaded`), a JSON body cut in the middle, or one whose connection drops halfway. (A `network_error`
 * fails the request itself; a `slow` fault delays the outcome.)
 */
export function faultResponse(injected: InjectedFault): Response {
  const { fired } = injected;
  const kind = fired.fault.fault;
  if (kind === "malformed" || kind === "stream_cut") {
    const half = JSON.stringify({ error: null, data: { note: "this body was cut on purpose", by: fired.where } }).slice(0, 40);
    const headers = { "content-type": "application/json" };
    if (kind === "malformed") return new Response(half, { status: 200, headers });
    return new Response(pacedBody([half], { cutAfter: 1, cut: new TypeError(`terminated: ${injected.message}`) }), {
      status: 200,
      headers,
    });
  }
  const headers = new Headers({ "content-type": "application/json" });
  const retryAfter = retryAfterOf(fired);
  if (retryAfter !== undefined) headers.set("retry-after", String(retryAfter));
  return new Response(JSON.stringify({ error: { message: injected.message } }), { status: faultStatus(fired, 503), headers });
}
