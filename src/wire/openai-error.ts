import type { WireErrorKind } from "./codec.js";

/** OpenAI's error body, the same for Chat Completions and Responses. */
export function openaiErrorBody(kind: WireErrorKind, message: string, param?: string): unknown {
  const type = kind === "mock_failed" ? "server_error" : "invalid_request_error";
  return { error: { message, type, param: param ?? null, code: kind === "not_found" && param === undefined ? "model_not_found" : null } };
}
