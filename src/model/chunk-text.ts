/**
 * Splits text into deltas as providers stream it: word by word, or, with `atLeast`, whole words grouped into
 * deltas of at least that many characters (fewer events for a client to parse, the same text).
 */
export function chunkText(text: string, atLeast = 0): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [text];
  if (atLeast <= 0) return words;
  const chunks: string[] = [];
  let current = "";
  for (const word of words) {
    current += word;
    if (current.length >= atLeast) {
      chunks.push(current);
      current = "";
    }
  }
  if (current !== "") chunks.push(current);
  return chunks;
}
