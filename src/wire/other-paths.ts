import { providerOf } from "./codecs.js";
import { errorReply, jsonReply } from "./http-replies.js";
import type { WireReply, WireRequest } from "./wire-http.js";

/**
 * Every other path on a provider's host gets the provider's own answer, so nothing goes out by accident:
 * `HEAD`/`GET` of the base (a client's connectivity check), the models list, a token count, or a 404.
 */
export async function answerOtherPath(request: WireRequest, path: string, models: ReadonlySet<string> | undefined): Promise<WireReply> {
  const codec = providerOf(request, path);
  const trimmed = path.replace(/\/+$/, "");
  if (trimmed === "" || trimmed === "/v1")
    return request.method === "HEAD" ? { status: 200, headers: codec.headers, body: null } : jsonReply({}, 200, codec.headers);
  const model = /\/models\/([^/]+)$/.exec(trimmed)?.[1];
  if (request.method === "GET" && (trimmed.endsWith("/models") || model !== undefined)) {
    if (model === undefined) return jsonReply(codec.modelList([...(models ?? [])]), 200, codec.headers);
    const id = decodeURIComponent(model);
    if (models !== undefined && !models.has(id)) return errorReply(codec, "not_found", codec.modelNotFound(id));
    return jsonReply(codec.modelEntry(id), 200, codec.headers);
  }
  if (request.method === "POST" && codec.countTokens !== undefined && trimmed.endsWith(codec.countTokens.path)) {
    try {
      return jsonReply(codec.countTokens.answer(JSON.parse(await request.text())), 200, codec.headers);
    } catch (cause) {
      return errorReply(codec, "invalid_request", cause instanceof Error ? cause.message : String(cause));
    }
  }
  return errorReply(codec, "not_found", codec.pathNotFound(request.method, path));
}
