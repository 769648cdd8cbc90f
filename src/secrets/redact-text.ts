import { KEY_VALUES } from "./key-formats.js";
import { isSecretName } from "./secret-names.js";

export const REDACTED = "[redacted]";

/** What redaction looks for: the names the user added, and the secret values known now. */
export interface RedactionRules {
  readonly fields: ReadonlySet<string>;
  readonly query: ReadonlySet<string>;
  readonly values: readonly string[];
  /**
   * Whether values in a well-known key format (`sk-...`, `ghp_...`, a JSON Web Token) are replaced wherever
   * they are: in what tooltrace writes for people; a cassette instead refuses to keep one (its scan says where).
   */
  readonly formats?: boolean;
}

/** A field or query parameter named like a secret, by the built-in names or the user's own. */
export function secretField(rules: RedactionRules, name: string, where: "field" | "query"): boolean {
  const own = where === "field" ? rules.fields : rules.query;
  return isSecretName(name, where) || (own.size > 0 && own.has(name.toLowerCase()));
}

const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`\\]+/gi;
const AUTH_SCHEME = /\b(Bearer|Basic|Token|Digest)\s+([A-Za-z0-9._~+/=-]{8,})/g;
// `"name": "value"`, `name=value`, `name: value`, and the same inside a string that holds JSON (`\"name\":\"value\"`,
// at any depth of escaping), `--name=value`: a pair inside free text (a log line, JSON inside a message, a command
// line). A name starts only where no name character (nor a path's `/`) precedes it, so a long run of letters is tried
// once, not at each.
const PAIR =
  /(\\{0,15}["']|)(?<![A-Za-z0-9_./])(?<![A-Za-z0-9_.]-)([A-Za-z_][A-Za-z0-9_.-]{1,63})\1(\s*[:=]\s*)(\\{1,15}"[^"\n]{0,2048}?\\{1,15}"|"(?:[^"\\\n]|\\.){0,2048}"|"(?:[^"\\\n]|\\.){1,2048}(?=…|\n|$)|'[^'\n]{0,2048}'|[^\s&,;"'}\]\\]{1,2048})/g;
/** A run of text holding percent-escapes (a form body, a query): decoded, it may hold a pair or JSON. */
const PERCENT_RUN = /[^\s"'<>`]*%[0-9A-Fa-f]{2}[^\s"'<>`]*/g;
/** Base64 (or base64url) of a JSON object: `{"` encodes as `eyJ`. */
const BASE64_JSON = /\beyJ[A-Za-z0-9+/_-]{8,}={0,2}/g;

/**
 * A string as tooltrace may write it: every known secret value replaced wherever it appears, URLs with their
 * credentials and secret-named query, fragment and path parameters redacted, `Bearer ...` values, secret-named
 * pairs (`"api_key": "..."`, `token=...`) inside the text, also in JSON held by a string, in percent-encoded
 * text and in base64 of JSON; with `formats`, values in a well-known key format. Redacting twice changes nothing.
 */
export function redactText(text: string, rules: RedactionRules): string {
  let out = text;
  for (const value of rules.values) if (out.includes(value)) out = out.split(value).join(REDACTED);
  if (rules.formats === true) out = out.replace(KEY_VALUES, REDACTED);
  if (out.includes("://")) out = out.replace(URL_PATTERN, (url) => redactUrl(url, rules));
  if (/Bearer|Basic|Token|Digest/.test(out))
    out = out.replace(AUTH_SCHEME, (match, scheme: string, value: string) => (value === REDACTED ? match : `${scheme} ${REDACTED}`));
  if (out.includes("eyJ")) out = out.replace(BASE64_JSON, (run) => (base64HoldsSecret(run, rules) ? REDACTED : run));
  if (out.includes("%")) out = out.replace(PERCENT_RUN, (run) => redactPercentRun(run, rules));
  if (!out.includes(":") && !out.includes("=")) return out;
  return redactPairs(out, rules);
}

/**
 * Each secret-named pair's value replaced. A pair whose name is no secret is passed over by its name alone, so
 * a pair inside its value (`"body": "{\"access_token\": ...}"`, `"posted": "password=..."`) is read in turn.
 */
function redactPairs(text: string, rules: RedactionRules): string {
  // One pattern, reset for each text: nothing below reads another text with it before this one is done.
  const pattern = PAIR;
  pattern.lastIndex = 0;
  let out = "";
  let from = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const [whole, quote = "", name = "", separator = "", value = ""] = match;
    if (!secretField(rules, name, "query") || isRedacted(value)) {
      // A value that could hold a pair of its own is read again from after the name; any other is passed whole.
      if (value.includes(":") || value.includes("=")) pattern.lastIndex = match.index + quote.length + name.length;
      continue;
    }
    const open = /^\\*["']/.exec(value)?.[0];
    const quoted = open === undefined ? REDACTED : `${open}${REDACTED}${open}`;
    out += `${text.slice(from, match.index)}${quote}${name}${quote}${separator}${quoted}`;
    from = match.index + whole.length;
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * Only the exact values: every known secret and, with `formats`, every value in a well-known key format,
 * replaced wherever it appears. What a finished document (a page, a JSON file) gets as its last pass, where
 * reading names and pairs in free text would take code or markup for a pair.
 */
export function redactValues(text: string, rules: RedactionRules): string {
  let out = text;
  for (const value of rules.values) if (out.includes(value)) out = out.split(value).join(REDACTED);
  return rules.formats === true ? out.replace(KEY_VALUES, REDACTED) : out;
}

/** A value already redacted: `[redacted]`, quoted at any depth, or cut from one by the pair's own end. */
function isRedacted(value: string): boolean {
  return value.replace(/^\\*["']/, "").startsWith("[redacted");
}

function redactPercentRun(run: string, rules: RedactionRules): string {
  // Piece by piece between a form's or a query's separators, so the run keeps its shape.
  return run.replace(/[^&=?#;]+/g, (piece) => {
    if (!/%[0-9A-Fa-f]{2}/.test(piece)) return piece;
    let decoded: string;
    try {
      decoded = decodeURIComponent(piece.replace(/\+/g, " "));
    } catch {
      return piece;
    }
    const redacted = redactText(decoded, rules);
    return redacted === decoded ? piece : encodeURIComponent(redacted);
  });
}

function base64HoldsSecret(run: string, rules: RedactionRules): boolean {
  const decoded = Buffer.from(run.replace(/-/g, "+").replace(/_/g, "/"), "base64").toString("utf8");
  return decoded.startsWith("{") && redactText(decoded, rules) !== decoded;
}

/**
 * A URL with its user and password removed, and secret-named parameters of its query and fragment
 * (`#access_token=...`) and the path segment after a secret-named one (`/token/abc`) redacted; the URL as it
 * was written when none of that is in it.
 */
export function redactUrl(url: string, rules: RedactionRules): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  let changed = false;
  if (parsed.username !== "" || parsed.password !== "") {
    parsed.username = "";
    parsed.password = "";
    changed = true;
  }
  for (const name of [...parsed.searchParams.keys()])
    if (secretField(rules, name, "query") && parsed.searchParams.get(name) !== REDACTED) {
      parsed.searchParams.set(name, REDACTED);
      changed = true;
    }
  if (parsed.hash.includes("=")) {
    const fragment = new URLSearchParams(parsed.hash.slice(1));
    let inFragment = false;
    for (const name of [...fragment.keys()])
      if (secretField(rules, name, "query") && fragment.get(name) !== REDACTED) {
        fragment.set(name, REDACTED);
        inFragment = true;
      }
    if (inFragment) {
      parsed.hash = fragment.toString();
      changed = true;
    }
  }
  const segments = parsed.pathname.split("/");
  for (let i = 1; i < segments.length; i++)
    if (segments[i - 1] !== "" && segments[i] !== "%5Bredacted%5D" && secretField(rules, decoded(segments[i - 1] as string), "query")) {
      segments[i] = REDACTED;
      changed = true;
    }
  let out = url;
  if (changed) {
    parsed.pathname = segments.join("/");
    out = parsed.toString();
  }
  for (const value of rules.values) if (out.includes(value)) out = out.split(value).join(REDACTED);
  return out;
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
