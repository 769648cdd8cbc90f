import { noWorkflowCommands } from "./excerpt.js";

/** Text safe as HTML content or a double-quoted attribute, whatever its type was in the file it came from. */
export function escapeHtml(text: unknown): string {
  return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/**
 * Text as Markdown shows it inline (a table cell, a summary, a heading): one line, no markup of its own, no
 * pipe that ends a cell, no workflow command.
 */
export function markdownText(text: unknown): string {
  return (
    escapeHtml(String(text))
      // A code span's backtick, a cell's pipe, and a link's or image's `](`: what could make markup of text.
      .replace(/[\\`|]/g, (char) => `\\${char}`)
      .replace(/\](?=[(:[])/g, "\\]")
      .replace(/\s+/g, " ")
      .replace(/::/g, ":\u200b:")
  );
}

/**
 * A fenced code block holding `text` whole: its fence longer than any run of backticks inside, so nothing in
 * the text closes it (or opens `<details>` after it), and no line of it a workflow command.
 */
export function markdownFence(info: string, text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${info}\n${noWorkflowCommands(text)}\n${fence}`;
}

/** Characters XML 1.0 cannot hold (most control characters): dropped from text a JUnit file carries. */
export function xmlSafe(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is removed.
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "");
}
