/** Splits text into word-sized deltas, as providers stream it. */
export function chunkText(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [text];
}
