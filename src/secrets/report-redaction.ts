import { globalSingleton } from "../base/global-state.js";
import { Redactor } from "./redactor.js";

const shared = globalSingleton("reportRedactor", () => ({ redactor: undefined as Redactor | undefined }));

/** The one redactor of what tooltrace writes beside cassettes: the same rules, the secrets known in this process. */
function redactor(): Redactor {
  shared.redactor ??= new Redactor();
  return shared.redactor;
}

/**
 * A trace or report value as tooltrace writes it (the viewer's report, JUnit's conversation, the GitHub
 * summary, OpenTelemetry spans, the JSON reporter): secret-named fields, known secret values, URLs'
 * secrets and secret-named pairs in text redacted, as in a cassette.
 */
export function redactForReport<T>(value: T): T {
  return redactor().value(value) as T;
}

/** Free text tooltrace writes (a failure message, a matcher's report), redacted the same way. */
export function redactReportText(text: string): string {
  return redactor().text(text);
}
