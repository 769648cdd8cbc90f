/** `text` cut to `max` characters with an ellipsis: what a message echoes of a value the user gave. */
export function excerpt(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** JSON of a value for a one-line message, cut to `max` characters; never throws. */
export function compactJson(value: unknown, max = 120): string {
  let text: string;
  try {
    text = value === undefined ? "undefined" : (JSON.stringify(value) ?? String(value));
  } catch {
    try {
      text = String(value);
    } catch {
      text = "[unprintable]";
    }
  }
  return excerpt(text, max);
}

/** `1 test`, `2 tests`: a count with its noun (the plural given when adding an `s` is wrong). */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}
