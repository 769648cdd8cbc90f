/** String length in code points, as JSON Schema (and ajv) count it. */
export function codePoints(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    length += 1;
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i += 1;
    }
  }
  return length;
}
