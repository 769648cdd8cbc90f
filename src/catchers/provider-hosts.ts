import { answerAtFetch } from "../edges/fetch-guard.js";
import { DEFAULT_BASE_URLS } from "../wire/base-urls.js";

const PROVIDER_ORIGINS = new Set(Object.values(DEFAULT_BASE_URLS).map((base) => new URL(base).origin));

/**
 * Installed by the setup files: a request to a provider's own API host (`api.openai.com`, ...) gets the
 * provider's own error naming `llm`, which its client does not retry, in a session or outside one, as soon
 * as the test file starts (a client at its default host outside any session got "Connection error." and
 * retried). The LLM wire loads at the first such request, and from then on answers as a session's would.
 */
export function answerProviderHosts(): void {
  // The LLM wire itself, once a session loaded it, answers these and more: it is not replaced.
  answerAtFetch(
    "llm-wire",
    0,
    (url, method) => {
      if (!PROVIDER_ORIGINS.has(originOf(url))) return undefined;
      return async (request, send, at) => {
        const { llmWireAnswerer } = await import("./fetch-wire.js");
        const answer = llmWireAnswerer()(url, method);
        return answer === undefined ? send(request) : answer(request, send, at);
      };
    },
    { ifAbsent: true },
  );
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "";
  }
}
