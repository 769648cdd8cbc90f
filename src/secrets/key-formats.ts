/** Well-known key formats: what must never reach a file, whatever field it sits in, and what it is called. */
export const KEY_FORMATS: readonly (readonly [string, RegExp])[] = [
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

/**
 * The key formats as one pattern for replacing them in text (a private key's whole block; a signed URL's
 * signature is the URL redactor's, by its parameter's name).
 */
export const KEY_VALUES =
  /\bsk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}|\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}|\bgithub_pat_[A-Za-z0-9_]{40,}|\b(?:AKIA|ASIA)[0-9A-Z]{16}\b|\bxox[abposr]-[A-Za-z0-9-]{10,}|\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}|\bAIza[0-9A-Za-z_-]{35}|\b[rs]k_live_[0-9A-Za-z]{16,}|-----BEGIN [A-Z ]*PRIVATE KEY-----(?:[^"]{0,8192}?-----END [A-Z ]*PRIVATE KEY-----)?/g;
