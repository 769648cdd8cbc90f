import type { HttpRequestView } from "../http-mocks/types.js";
import { parseMaybeJson } from "../model/request-view.js";
import { rememberHeaderSecrets } from "../secrets/known-secrets.js";

/** The request as HTTP mocks match it and the trace keeps it: plain JSON, the body read from a clone. */
export async function requestView(request: Request): Promise<HttpRequestView> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // A key the request carries is replaced wherever it appears in a cassette, even echoed back in a body.
  rememberHeaderSecrets(Object.entries(headers));
  const text = request.body === null ? "" : await request.clone().text();
  const body = text === "" ? undefined : parseMaybeJson(text);
  return { method: request.method, url: request.url, path: url.pathname, query: Object.fromEntries(url.searchParams), headers, body };
}
