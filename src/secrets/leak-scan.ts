import { pointerToken } from "../base/errors.js";

/** Well-known key formats: what must never reach a file, whatever field it sits in. */
const KEY_FORMATS: readonly [string, RegExp][] = [
  ["an OpenAI or Anthropic API key (sk-...)", /\bsk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/],
  ["a GitHub token", /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}|\bgithub_pat_[A-Za-z0-9_]{40,}/],
  ["an AWS access key id (AKIA...)", /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/],
  ["a Slack token (xox?-...)", /\bxox[abposr]-[A-Za-z0-9-]{10,}/],
  ["a JSON Web Token", /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/],
  ["a Google API key (AIza...)", /\bAIza[0-9A-Za-z_-]{35}/],
  ["a Stripe live key", /\b[rs]k_live_[0-9A-Za-z]{16,}/],
  ["a signed URL's signature", /[?&#](?:X-Amz-Signature|X-Goog-Signature|Signature|sig)=(?!%5Bredacted%5D|\[redacted\])[^&\s"']+/i],
  ["a private key", /-----BEGIN [A-Z ]*PRIVATE KEY-----/],
];

/** Where a well-known key format remains in `document` (each object as `asRead` shows it), and what it looks like; `undefined` when none does. */
export function findLeak(
  document: unknown,
  asRead: (value: object) => object = (value) => value,
): { readonly pointer: string; readonly kind: string } | undefined {
  const stack: [unknown, string][] = [[document, ""]];
  while (stack.length > 0) {
    const [value, pointer] = stack.pop() as [unknown, string];
    if (typeof value === "string") {
      const kind = formatOf(value);
      if (kind !== undefined) return { pointer, kind };
    } else if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) stack.push([item, `${pointer}/${index}`]);
    } else if (value !== null && typeof value === "object") {
      for (const [key, item] of Object.entries(asRead(value))) {
        const kind = formatOf(key);
        if (kind !== undefined) return { pointer: `${pointer}/${pointerToken(key)}`, kind };
        stack.push([item, `${pointer}/${pointerToken(key)}`]);
      }
    }
  }
  return undefined;
}

function formatOf(text: string): string | undefined {
  for (const [kind, pattern] of KEY_FORMATS) if (pattern.test(text)) return kind;
  return undefined;
}
