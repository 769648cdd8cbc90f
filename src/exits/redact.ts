import { globalSingleton } from "../base/global-state.js";
import { Redactor } from "../secrets/redactor.js";

const shared = globalSingleton("reportRedactor", () => ({ redactor: undefined as Redactor | undefined }));

/**
 * The one redactor of everything tooltrace writes for people (beside cassettes, which have their own rules):
 * the same names and values, the secrets known in this process, and values in a well-known key format.
 */
function redactor(): Redactor {
  shared.redactor ??= new Redactor({}, { formats: true });
  return shared.redactor;
}

/**
 * A value as tooltrace hands it out (a report, task metadata, a snapshot, a span, a matcher's diff):
 * secret-named fields, known secret values, key formats, URLs' secrets and secret-named pairs in text
 * (JSON inside a string too) redacted. Redacting twice changes nothing.
 */
export function redactForReport<T>(value: T): T {
  return redactor().value(value) as T;
}

/** Free text tooltrace writes (a message, a line, a whole file), redacted the same way. */
export function redactReportText(text: string): string {
  return redactor().text(text);
}

/** A value in its own shape (asymmetric matchers and class instances kept), redacted: what a diff shows. */
export function redactShaped<T>(value: T): T {
  return redactor().shaped(value) as T;
}

/** A finished page or JSON file's last pass: the exact secret values and key formats only (see `redactValues`). */
export function redactValuesIn(text: string): string {
  return redactor().valuesIn(text);
}
