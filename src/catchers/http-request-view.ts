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
  const body = text === "" ? undefined : bodyOf(text, headers["content-type"] ?? "");
  return { method: request.method, url: request.url, path: url.pathname, query: Object.fromEntries(url.searchParams), headers, body };
}

/** A body as HTTP mocks match it: JSON parsed, a form's fields as a record (a field given twice, as an array). */
function bodyOf(text: string, contentType: string): unknown {
  if (contentType.includes("application/x-www-form-urlencoded")) return fields(new URLSearchParams(text));
  if (contentType.includes("multipart/form-data")) return multipartFields(text, contentType) ?? text;
  return parseMaybeJson(text);
}

function fields(entries: Iterable<[string, string]>): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {};
  for (const [name, value] of entries) {
    const known = record[name];
    record[name] = known === undefined ? value : Array.isArray(known) ? [...known, value] : [known, value];
  }
  return record;
}

/** A multipart body's text fields (a file's part is named by its file name). */
function multipartFields(text: string, contentType: string): Record<string, string | string[]> | undefined {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (boundary === undefined) return undefined;
  const entries: [string, string][] = [];
  for (const part of text.split(`--${boundary}`)) {
    const gap = /\r?\n\r?\n/.exec(part);
    if (gap === null) continue;
    const head = part.slice(0, gap.index);
    const name = /\bname="([^"]*)"/i.exec(head)?.[1];
    if (name === undefined) continue;
    const file = /\bfilename="([^"]*)"/i.exec(head)?.[1];
    entries.push([name, file ?? part.slice(gap.index + gap[0].length).replace(/\r?\n$/, "")]);
  }
  return fields(entries);
}
