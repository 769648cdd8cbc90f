/**
 * Responses whatever class the global `Response` is now. Hono's Node server (`@hono/node-server`) puts a
 * lighter class of its own in the global when it serves, and MSW wraps whatever class is there in a proxy.
 * After both, a `Response` Node's `fetch` made is no longer `instanceof Response`: a check that way misses a
 * real answer, and MSW answers a `Response.error()` as a response of status 0 instead of failing the request.
 */

/** Whether a value is a web `Response`, of Node's class or of a class a library put in the global. */
export function isResponse(value: unknown): value is Response {
  return Object.prototype.toString.call(value) === "[object Response]";
}

/**
 * A `Response.error()` that the global `Response` recognises, so that MSW fails the request with it as a
 * network error. Under a replaced global, the error keeps its own `type` and `status` and takes the global
 * class's prototype, which is all MSW reads of it.
 */
export function networkErrorResponse(): Response {
  const error = Response.error();
  const Global = globalThis.Response;
  if (error instanceof Global) return error;
  Object.defineProperties(error, {
    type: { value: "error" },
    status: { value: 0 },
    statusText: { value: "" },
    ok: { value: false },
    body: { value: null },
  });
  return Object.setPrototypeOf(error, Global.prototype) as Response;
}
