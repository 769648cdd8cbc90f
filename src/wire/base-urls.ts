import type { WireApi } from "./codec.js";

/** The providers' own base URLs, mocked always so nothing reaches a real provider by accident. */
export const DEFAULT_BASE_URLS: Readonly<Record<"anthropic" | "openai", string>> = {
  anthropic: "https://api.anthropic.com",
  openai: "https://api.openai.com/v1",
};

/**
 * The endpoint URLs of each API under a base URL, the way each SDK builds them: Anthropic's base has no
 * `/v1` (the SDK adds `/v1/messages`), OpenAI's base ends in `/v1` (the SDK adds `/chat/completions`).
 * A bare host gets the `/v1` prefix for both; any other path (a gateway, an Azure deployment) is kept.
 */
export function endpointsFor(base: string, api: WireApi): string[] {
  const trimmed = base.replace(/\/+$/, "");
  const path = new URL(trimmed.replace(/\*/g, "wildcard")).pathname;
  const bare = path === "" || path === "/";
  switch (api) {
    case "anthropic.messages":
      return [trimmed.endsWith("/v1") ? `${trimmed}/messages` : `${trimmed}/v1/messages`];
    case "openai.chat":
      return bare ? [`${trimmed}/v1/chat/completions`] : [`${trimmed}/chat/completions`];
    case "openai.responses":
      return bare ? [`${trimmed}/v1/responses`] : [`${trimmed}/responses`];
  }
}
