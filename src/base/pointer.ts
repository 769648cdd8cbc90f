/** Escapes one reference token of a JSON pointer. */
export function pointerToken(token: string | number): string {
  const text = String(token);
  return text.includes("~") || text.includes("/") ? text.replace(/~/g, "~0").replace(/\//g, "~1") : text;
}

/** A JSON pointer from its reference tokens, each escaped: `["a/b", "0"]` is `/a~1b/0`. */
export function pointerOf(tokens: readonly (string | number)[]): string {
  return tokens.map((token) => `/${pointerToken(token)}`).join("");
}
