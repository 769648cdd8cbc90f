/** The most lines shown of each side of a change, and of each line. */
const MOST_LINES = 12;
const LINE_WIDTH = 160;

/**
 * The lines of `before` and `after` that differ, as diff lines (`- recorded`, `+ now`): what both share at the
 * start and at the end is left out, and each side is cut to a dozen lines, so a long prompt's one changed
 * sentence reads as that sentence.
 */
export function changedLines(before: string, after: string): string[] {
  const old = before.split("\n");
  const now = after.split("\n");
  let start = 0;
  while (start < old.length && start < now.length && old[start] === now[start]) start += 1;
  let end = 0;
  while (end < old.length - start && end < now.length - start && old[old.length - 1 - end] === now[now.length - 1 - end]) end += 1;
  const side = (lines: string[], sign: string) => {
    const changed = lines.slice(start, lines.length - end);
    const shown = changed
      .slice(0, MOST_LINES)
      .map((line) => `${sign} ${line.length > LINE_WIDTH ? `${line.slice(0, LINE_WIDTH)}…` : line}`);
    return changed.length > MOST_LINES ? [...shown, `${sign} … ${changed.length - MOST_LINES} more lines`] : shown;
  };
  const context = start > 0 ? [`  (${start} line${start === 1 ? "" : "s"} the same above)`] : [];
  return [...context, ...side(old, "-"), ...side(now, "+")];
}
