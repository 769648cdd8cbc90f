import { splitBase } from "./base-urls.js";
import type { WireErrorKind } from "./codec.js";

/** What Chat Completions and Responses share: error shape, models list, endpoints, headers, Azure deployments. */
export const openaiShared = {
  headers: { "x-request-id": "req_tooltrace" },

  /** OpenAI's base ends in `/v1` (the SDK adds the endpoint); a bare host gets `/v1`; any other path is kept. */
  endpoint(base: string, path: string): string[] {
    const { trimmed, bare } = splitBase(base);
    return [bare ? `${trimmed}/v1${path}` : `${trimmed}${path}`];
  },

  /** An Azure-style deployment path names the model the body leaves out. */
  modelFromUrl(url: URL): string | undefined {
    const deployment = /\/deployments\/([^/]+)\//.exec(url.pathname)?.[1];
    return deployment === undefined ? undefined : decodeURIComponent(deployment);
  },

  errorBody(kind: WireErrorKind, message: string, param?: string): unknown {
    const type =
      kind === "invalid_request" || kind === "not_found"
        ? "invalid_request_error"
        : kind === "rate_limit"
          ? "rate_limit_error"
          : "server_error";
    const code = kind === "not_found" && param === undefined ? "model_not_found" : kind === "rate_limit" ? "rate_limit_exceeded" : null;
    return { error: { message, type, param: param ?? null, code } };
  },

  overloadedStatus: 503,
  pathNotFound: (method: string, path: string) =>
    `Invalid URL (${method} ${path}). tooltrace's wire mock answers POST /v1/chat/completions and /v1/responses, GET /v1/models and /v1/messages/count_tokens.`,
  modelNotFound: (model: string) => `The model \`${model}\` does not exist or you do not have access to it.`,
  modelEntry: (id: string) => ({ id, object: "model", created: 1_700_000_000, owned_by: "tooltrace" }),
  modelList: (ids: readonly string[]) => ({ object: "list", data: ids.map(openaiShared.modelEntry) }),
};
