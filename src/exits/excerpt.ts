import { redactForReport, redactReportText } from "./redact.js";

/**
 * `text` cut to `max` characters with an ellipsis: what a message echoes of a value the user gave. Redacted
 * before it is cut, so a cut never leaves the start of a secret that redaction would have found whole.
 */
export function excerpt(text: string, max = 120): string {
  return cut(redactReportText(text), max);
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** JSON of a value for a one-line message, redacted, then cut to `max` characters; never throws. */
export function compactJson(value: unknown, max = 120): string {
  let text: string;
  try {
    // Redacted as a value (names, JSON inside strings), then cut: the text needs no second pass.
    text = value === undefined ? "undefined" : (JSON.stringify(redactForReport(value)) ?? String(value));
  } catch {
    try {
      text = redactReportText(String(value));
    } catch {
      text = "[unprintable]";
    }
  }
  return cut(text, max);
}

/** The start and the end of `text` with an ellipsis between, when it is longer than `head + tail`: redacted first. */
export function middleCut(text: string, head: number, tail: number): string {
  const redacted = redactReportText(text);
  return redacted.length > head + tail ? `${redacted.slice(0, head)}…${redacted.slice(-tail)}` : redacted;
}

/** `1 test`, `2 tests`: a count with its noun (the plural given when adding an `s` is wrong). */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}

/**
 * `text` on one line, its line breaks escaped as GitHub documents for workflow commands (`%0D`, `%0A`): what a
 * tool, a page or a model wrote never starts a line of tooltrace's output, where CI reads `::error` and `::add-mask`.
 */
export function oneLine(text: string): string {
  return text.replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/**
 * `text` with no line that CI would read as a workflow command: a line starting with `::` once its indent is
 * trimmed (as GitHub's runner trims it) gets a zero-width space between the colons, which shows the same.
 */
export function noWorkflowCommands(text: string): string {
  return text.includes("::") ? text.replace(/^(\s*):(?=:)/gm, "$1:\u200b") : text;
}
