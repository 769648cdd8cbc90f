/** Query parameters and JSON fields redacted on write unless the user names more. */
const SECRET_NAMES = [
  "authorization",
  "api_key",
  "apikey",
  "api-key",
  "x-api-key",
  "token",
  "access_token",
  "refresh_token",
  "secret",
  "client_secret",
  "password",
  "cookie",
  "set-cookie",
];
/** Response headers kept in a cassette; every other one (set-cookie, auth, tracing ids) is left out. */
const KEPT_HEADERS = new Set(["content-type"]);

export const REDACTED = "[redacted]";

/** Redacts secrets before anything reaches a cassette. */
export class Redactor {
  private readonly query: ReadonlySet<string>;
  private readonly fields: ReadonlySet<string>;

  constructor(extra: { query?: readonly string[]; fields?: readonly string[] } = {}) {
    this.query = new Set([...SECRET_NAMES, ...(extra.query ?? [])].map((name) => name.toLowerCase()));
    this.fields = new Set([...SECRET_NAMES, ...(extra.fields ?? [])].map((name) => name.toLowerCase()));
  }

  url(url: string): string {
    const parsed = new URL(url);
    if (parsed.username !== "" || parsed.password !== "") {
      parsed.username = "";
      parsed.password = "";
    }
    for (const name of [...parsed.searchParams.keys()]) if (this.query.has(name.toLowerCase())) parsed.searchParams.set(name, REDACTED);
    return parsed.toString();
  }

  /** A value as JSON (dates as their strings, as the agent would send them), secret-named strings and numbers redacted. */
  value(value: unknown): unknown {
    if (value === undefined) return undefined;
    return this.redactJson(JSON.parse(JSON.stringify(value)) as unknown);
  }

  private redactJson(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.redactJson(item));
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [
        name,
        this.fields.has(name.toLowerCase()) && (typeof item === "string" || typeof item === "number") ? REDACTED : this.redactJson(item),
      ]),
    );
  }

  /** Free text (an error message): the URLs in it, with their credentials and secret query parameters. */
  text(text: string): string {
    return text.replace(/\bhttps?:\/\/[^\s"'<>]+/g, (url) => {
      try {
        return this.url(url);
      } catch {
        return url;
      }
    });
  }

  headers(headers: Headers): Record<string, string> {
    const kept: Record<string, string> = {};
    headers.forEach((value, name) => {
      if (KEPT_HEADERS.has(name)) kept[name] = value;
    });
    return kept;
  }

  /** A text body: JSON redacted field by field, a form body (`a=1&b=2`) by name; other text as it is. */
  body(text: string): string {
    try {
      return JSON.stringify(this.value(JSON.parse(text)));
    } catch {
      if (!/^[^=&\s]+=[^&\s]*(&[^=&\s]+=[^&\s]*)*$/.test(text)) return text;
      const form = new URLSearchParams(text);
      for (const name of [...form.keys()]) if (this.fields.has(name.toLowerCase())) form.set(name, REDACTED);
      return form.toString();
    }
  }
}
