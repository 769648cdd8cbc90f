/** Names that are a secret whatever precedes them (`accessToken`, `client_secret`, `X-Amz-Signature`). */
const SECRET_SUFFIXES = [
  "token",
  "secret",
  "password",
  "passwd",
  "apikey",
  "privatekey",
  "accesskey",
  "secretkey",
  "credential",
  "credentials",
  "signature",
  "cookie",
  "authorization",
  "sessionid",
];
/** Names that are a secret only on their own (`auth`, `sig`): as a suffix they are too common. */
const SECRET_NAMES = new Set(["auth", "sig", "pwd", "jwt", "bearer", "otp"]);
/** In a URL's query a bare `key` is an API key (`?key=AIza...`); in JSON it is usually an identifier. */
const SECRET_QUERY_NAMES = new Set(["key"]);

/** Verdicts by name: a trace repeats a handful of names (`role`, `text`, `toolCalls`) thousands of times. */
const verdicts = { field: new Map<string, boolean>(), query: new Map<string, boolean>() };
const MAX_VERDICTS = 10_000;

/**
 * Whether a field, query parameter, header or variable named `name` holds a secret, in any case style:
 * `accessToken`, `access_token`, `ACCESS-TOKEN` and `X-Access-Token` read alike. Counts (`maxTokens`,
 * `inputTokens`) are not secrets.
 */
export function isSecretName(name: string, where: "field" | "query" = "field"): boolean {
  const known = verdicts[where].get(name);
  if (known !== undefined) return known;
  const verdict = judge(name, where);
  if (verdicts[where].size >= MAX_VERDICTS) verdicts[where].clear();
  verdicts[where].set(name, verdict);
  return verdict;
}

function judge(name: string, where: "field" | "query"): boolean {
  const bare = name.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (bare === "" || bare.endsWith("tokens") || bare.endsWith("count")) return false;
  return (
    SECRET_NAMES.has(bare) || (where === "query" && SECRET_QUERY_NAMES.has(bare)) || SECRET_SUFFIXES.some((suffix) => bare.endsWith(suffix))
  );
}
