import { isSecretName } from "./secret-names.js";

export const REDACTED = "[redacted]";

/** What redaction looks for: the names the user added, and the secret values known now. */
export interface RedactionRules {
  readonly fields: ReadonlySet<string>;
  readonly query: ReadonlySet<string>;
  readonly values: readonly string[];
}

/** A field or query parameter named like a secret, by the built-in names or the user's own. */
export function secretField(rules: RedactionRules, name: string, where: "field" | "query"): boolean {
  const own = where === "field" ? rules.fields : rules.query;
  return isSecretName(name, where) || (own.size > 0 && own.has(name.toLowerCase()));
}

const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;
const AUTH_SCHEME = /\b(Bearer|Basic|Token|Digest)\s+([A-Za-z0-9._~+/=-]{8,})/g;
// `"name": "value"`, `name=value`, `name: value`: a pair inside free text (a log line, JSON inside a message).
// A name starts only where no name character precedes it, so a long run of letters is tried once, not at each letter.
const PAIR =
  /(["']?)(?<![A-Za-z0-9_.-])([A-Za-z_][A-Za-z0-9_.-]{1,63})\1(\s*[:=]\s*)("(?:[^"\\\n]|\\.){0,2048}"|'[^'\n]{0,2048}'|[^\s&,;"'}\]]{1,2048})/g;

/**
 * A string as a cassette may keep it: every known secret value replaced wherever it appears, URLs with
 * their credentials and secret-named query, fragment and path parameters redacted, `Bearer ...` values,
 * and secret-named pairs (`"api_key": "..."`, `token=...`) inside the text.
 */
export function redactText(text: string, rules: RedactionRules): string {
  let out = text;
  for (const value of rules.values) if (out.includes(value)) out = out.split(value).join(REDACTED);
  if (out.includes("://")) out = out.replace(URL_PATTERN, (url) => redactUrl(url, rules));
  if (/Bearer|Basic|Token|Digest/.test(out))
    out = out.replace(AUTH_SCHEME, (match, scheme: string, value: string) => (value === REDACTED ? match : `${scheme} ${REDACTED}`));
  if (!out.includes(":") && !out.includes("=")) return out;
  return out.replace(PAIR, (match, quote: string, name: string, separator: string, value: string) => {
    if (!secretField(rules, name, "query") || value.includes(REDACTED)) return match;
    const quoted = value.startsWith('"') ? `"${REDACTED}"` : value.startsWith("'") ? `'${REDACTED}'` : REDACTED;
    return `${quote}${name}${quote}${separator}${quoted}`;
  });
}

/**
 * A URL with its user and password removed, and secret-named parameters of its query and fragment
 * (`#access_token=...`) and the path segment after a secret-named one (`/token/abc`) redacted.
 */
export function redactUrl(url: string, rules: RedactionRules): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  parsed.username = "";
  parsed.password = "";
  for (const name of [...parsed.searchParams.keys()]) if (secretField(rules, name, "query")) parsed.searchParams.set(name, REDACTED);
  if (parsed.hash.includes("=")) {
    const fragment = new URLSearchParams(parsed.hash.slice(1));
    for (const name of [...fragment.keys()]) if (secretField(rules, name, "query")) fragment.set(name, REDACTED);
    parsed.hash = fragment.toString();
  }
  const segments = parsed.pathname.split("/");
  for (let i = 1; i < segments.length; i++)
    if (segments[i - 1] !== "" && secretField(rules, decodeURIComponent(segments[i - 1] as string), "query")) segments[i] = REDACTED;
  parsed.pathname = segments.join("/");
  let out = parsed.toString();
  for (const value of rules.values) if (out.includes(value)) out = out.split(value).join(REDACTED);
  return out;
}
