/**
 * `source` with every comment and string blanked out (each character a space, line breaks kept), so a search
 * for code (`plugins: [`, `defineConfig({`) never matches inside a comment or a string, and positions found
 * in the result are positions in `source`.
 */
export function codeOnly(source: string): string {
  let out = "";
  let i = 0;
  const blank = (text: string) => text.replace(/[^\n]/g, " ");
  while (i < source.length) {
    const rest = source.slice(i, i + 2);
    let end: number;
    if (rest === "//") end = endOf(source, "\n", i + 2, false);
    else if (rest === "/*") end = endOf(source, "*/", i + 2, false) + 1;
    else if (source[i] === '"' || source[i] === "'" || source[i] === "`") end = endOf(source, source[i] as string, i + 1, true);
    else {
      out += source[i];
      i += 1;
      continue;
    }
    const stop = Math.min(end + 1, source.length);
    out += blank(source.slice(i, stop));
    i = stop;
  }
  return out;
}

/** Where `closing` starts from `from` (a backslash escapes the next character inside a string), or the end. */
function endOf(source: string, closing: string, from: number, escapes: boolean): number {
  for (let i = from; i < source.length; i++) {
    if (escapes && source[i] === "\\") {
      i += 1;
      continue;
    }
    if (source.startsWith(closing, i)) return closing === "\n" ? i - 1 : i;
  }
  return source.length - 1;
}
