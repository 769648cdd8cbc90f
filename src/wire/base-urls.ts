/** The providers' own base URLs, mocked always so nothing reaches a real provider by accident. */
export const DEFAULT_BASE_URLS: Readonly<Record<"anthropic" | "openai" | "gemini", string>> = {
  anthropic: "https://api.anthropic.com",
  openai: "https://api.openai.com/v1",
  gemini: "https://generativelanguage.googleapis.com",
};

/** A base URL without its trailing slashes, and whether it is a bare host (no path). */
export function splitBase(base: string): { readonly trimmed: string; readonly bare: boolean } {
  const trimmed = base.replace(/\/+$/, "");
  const path = new URL(trimmed.replace(/\*/g, "wildcard")).pathname;
  return { trimmed, bare: path === "" || path === "/" };
}
