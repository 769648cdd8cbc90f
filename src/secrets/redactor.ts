import { toJsonValue } from "../base/json-value.js";
import { environmentSecrets, knownSecrets, secretsVersion } from "./known-secrets.js";
import { findLeak } from "./leak-scan.js";
import { redactMultipart } from "./redact-multipart.js";
import { REDACTED, type RedactionRules, redactText, redactUrl, redactValues, secretField } from "./redact-text.js";

export { REDACTED } from "./redact-text.js";

/** Response headers kept in a cassette; every other one (set-cookie, auth, tracing ids) is left out. */
const KEPT_HEADERS = new Set(["content-type"]);

/** The user's additions to what is redacted (`cassette: { redact }`). */
export interface RedactOptions {
  /** Query parameters of recorded URLs. */
  readonly query?: readonly string[];
  /** JSON fields anywhere in recorded inputs, outputs and bodies. */
  readonly fields?: readonly string[];
  /** Values replaced wherever they appear (a key the test reads from a file). */
  readonly values?: readonly string[];
}

/** How a {@link Redactor} treats values in a well-known key format: a cassette refuses to keep one; what people read has it replaced. */
export interface RedactorMode {
  readonly formats?: boolean;
}

/**
 * Redacts secrets before anything reaches a cassette, by name and by value: fields and parameters named like
 * secrets (any case style, any type of value), every secret value tooltrace knows (the keys requests
 * carried, environment variables named like keys, the user's own) wherever it appears, and secrets inside
 * text (URLs, `Bearer ...`, `"api_key": "..."`). The same input always redacts the same way, so a replayed
 * call is compared with what was recorded.
 */
export class Redactor {
  private readonly fields: ReadonlySet<string>;
  private readonly query: ReadonlySet<string>;
  /** The environment's secrets (read once, when the session starts) and the user's own values. */
  private readonly ownValues: readonly string[];
  private readonly formats: boolean;
  private cached: { readonly version: number; readonly rules: RedactionRules } | undefined;

  constructor(extra: RedactOptions = {}, mode: RedactorMode = {}) {
    this.formats = mode.formats === true;
    this.fields = new Set((extra.fields ?? []).map((name) => name.toLowerCase()));
    this.query = new Set((extra.query ?? []).map((name) => name.toLowerCase()));
    this.ownValues = [...environmentSecrets(), ...(extra.values ?? [])];
  }

  /** The rules now: secret values become known while the session runs (a request's key). */
  private rules(): RedactionRules {
    const version = secretsVersion();
    if (this.cached?.version !== version)
      this.cached = {
        version,
        rules: { fields: this.fields, query: this.query, values: knownSecrets(this.ownValues), formats: this.formats },
      };
    return this.cached.rules;
  }

  url(url: string): string {
    return redactUrl(url, this.rules());
  }

  /** A value as JSON (dates as their strings, as the agent would send them), with every secret redacted. */
  value(value: unknown): unknown {
    if (value === undefined) return undefined;
    return this.redactJson(toJsonValue(value), this.rules(), new Memo());
  }

  /**
   * A value in its own shape (a matcher's expected and actual values, for the runner's diff): strings
   * redacted, secret-named fields of plain objects replaced, every other object (an asymmetric matcher, a
   * RegExp, a Date, a class instance) kept as it is.
   */
  shaped(value: unknown): unknown {
    return this.redactShape(value, this.rules(), new Map());
  }

  private redactShape(value: unknown, rules: RedactionRules, seen: Map<object, unknown>): unknown {
    if (typeof value === "string") return this.redactString(value, rules);
    if (value === null || typeof value !== "object") return value;
    const done = seen.get(value);
    if (done !== undefined) return done;
    if (Array.isArray(value)) {
      const copy: unknown[] = [];
      seen.set(value, copy);
      for (const item of value) copy.push(this.redactShape(item, rules, seen));
      return copy;
    }
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) return value;
    const copy: Record<string, unknown> = {};
    seen.set(value, copy);
    for (const name of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[name];
      const kept =
        secretField(rules, name, "field") && typeof item === "string" && item !== "" ? REDACTED : this.redactShape(item, rules, seen);
      Object.defineProperty(copy, name, { value: kept, enumerable: true, writable: true, configurable: true });
    }
    return copy;
  }

  /** A finished document's last pass: the exact secret values (and key formats), nothing read as a pair. */
  valuesIn(text: string): string {
    return redactValues(text, this.rules());
  }

  /** Free text (an error message): secret values, URLs' secrets, and secret-named pairs in it. */
  text(text: string): string {
    return redactText(text, this.rules());
  }

  headers(headers: Headers): Record<string, string> {
    const kept: Record<string, string> = {};
    headers.forEach((value, name) => {
      if (KEPT_HEADERS.has(name)) kept[name] = value;
    });
    return kept;
  }

  /** A text body: JSON redacted field by field, a form body (`a=1&b=2`, multipart) by name; other text as free text. */
  body(text: string): string {
    const rules = this.rules();
    try {
      return JSON.stringify(this.redactJson(JSON.parse(text), rules));
    } catch {
      const multipart = redactMultipart(text, rules);
      if (multipart !== undefined) return redactText(multipart, rules);
      if (!/^[^=&\s]+=[^&\s]*(&[^=&\s]+=[^&\s]*)*$/.test(text)) return redactText(text, rules);
      const form = new URLSearchParams(text);
      for (const name of [...form.keys()]) if (secretField(rules, name, "field")) form.set(name, REDACTED);
      return redactText(form.toString(), rules);
    }
  }

  /** A body that is not text (an image, a PDF, `application/octet-stream`): every known secret value in its bytes replaced. */
  bytes(bytes: Uint8Array): Uint8Array {
    const { values } = this.rules();
    // Latin-1 maps each byte to one character and back: the bytes around a replaced value stay as they were.
    let text = Buffer.from(bytes).toString("latin1");
    let changed = false;
    for (const value of values) {
      const needle = Buffer.from(value, "utf8").toString("latin1");
      if (!text.includes(needle)) continue;
      text = text.split(needle).join(REDACTED);
      changed = true;
    }
    return changed ? new Uint8Array(Buffer.from(text, "latin1")) : bytes;
  }

  /**
   * The last look before a cassette is written: every string redacted once more (a secret that became known
   * after it was recorded), then scanned for well-known key formats: where one remains, `leak` says where and
   * what it looks like, and the writer refuses the write.
   */
  checked<T>(document: T): { readonly document: T; readonly leak: { readonly pointer: string; readonly kind: string } | undefined } {
    const redacted = this.strings(document, this.rules()) as T;
    return { document: redacted, leak: findLeak(redacted, decodedBodies) };
  }

  private strings(value: unknown, rules: RedactionRules): unknown {
    if (typeof value === "string") return redactText(value, rules);
    if (Array.isArray(value)) return value.map((item) => this.strings(item, rules));
    if (value === null || typeof value !== "object") return value;
    // Bytes in base64 are no text: a replaced run inside them would corrupt the body on replay. They are
    // redacted as bytes, and the leak scan reads them decoded.
    const bytes = (value as { bodyEncoding?: unknown }).bodyEncoding === "base64";
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [
        name,
        bytes && name === "body" && typeof item === "string"
          ? Buffer.from(this.bytes(Buffer.from(item, "base64"))).toString("base64")
          : this.strings(item, rules),
      ]),
    );
  }

  // A trace shares one copy of each message among the requests that repeat it: the memo redacts it once.
  private redactJson(value: unknown, rules: RedactionRules, memo = new Memo()): unknown {
    if (typeof value === "string") {
      const known = memo.strings.get(value);
      if (known !== undefined) return known;
      const redacted = this.redactString(value, rules);
      memo.strings.set(value, redacted);
      return redacted;
    }
    if (value === null || typeof value !== "object") return value;
    const done = memo.objects.get(value);
    if (done !== undefined) return done;
    if (Array.isArray(value)) {
      const redacted = value.map((item) => this.redactJson(item, rules, memo));
      memo.objects.set(value, redacted);
      return redacted;
    }
    const redacted: Record<string, unknown> = {};
    for (const name of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[name];
      const kept = secretField(rules, name, "field") && item !== null && item !== "" ? REDACTED : this.redactJson(item, rules, memo);
      // A parsed body may hold its own "__proto__" key: kept as data, as Object.fromEntries would.
      if (name === "__proto__")
        Object.defineProperty(redacted, name, { value: kept, enumerable: true, writable: true, configurable: true });
      else redacted[name] = kept;
    }
    memo.objects.set(value, redacted);
    return redacted;
  }

  /** A string value: JSON inside it redacted as JSON (re-serialized only if something changed), a multipart body by part, else as text. */
  private redactString(text: string, rules: RedactionRules): string {
    const first = text.trimStart()[0];
    if ((first === "{" || first === "[") && text.length < 1_000_000) {
      try {
        const parsed = JSON.parse(text) as unknown;
        const redacted = this.redactJson(parsed, rules);
        if (JSON.stringify(redacted) !== JSON.stringify(parsed)) return JSON.stringify(redacted);
      } catch {
        // Not JSON after all: text.
      }
    }
    return redactText(first === "-" ? (redactMultipart(text, rules) ?? text) : text, rules);
  }
}

/** What the leak scan reads of a base64 body: its bytes as text. */
function decodedBodies(value: object): object {
  const { body, bodyEncoding } = value as { body?: unknown; bodyEncoding?: unknown };
  return bodyEncoding === "base64" && typeof body === "string" ? { ...value, body: Buffer.from(body, "base64").toString("latin1") } : value;
}

/** What one redaction already did: objects (shared by reference in a trace) and strings, each redacted once. */
class Memo {
  readonly objects = new Map<object, unknown>();
  readonly strings = new Map<string, string>();
}
