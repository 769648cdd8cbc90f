/** Sets of code points as sorted, merged `[from, to]` ranges: what the pattern checks reason about. */
export type Ranges = readonly (readonly [number, number])[];

export const MAX_CODE_POINT = 0x10ffff;
export const ANY: Ranges = [[0, MAX_CODE_POINT]];

/** JavaScript's `\s`: what `/\s/u` matches. */
export const JS_WHITESPACE: Ranges = [
  [9, 13],
  [32, 32],
  [160, 160],
  [5760, 5760],
  [8192, 8202],
  [8232, 8233],
  [8239, 8239],
  [8287, 8287],
  [12288, 12288],
  [65279, 65279],
];
export const DIGITS: Ranges = [[48, 57]];
export const WORD: Ranges = [
  [48, 57],
  [65, 90],
  [95, 95],
  [97, 122],
];
/** What `.` matches without the `s` flag: everything but line terminators. */
export const NOT_LINE_TERMINATOR: Ranges = complement([
  [10, 10],
  [13, 13],
  [8232, 8233],
]);

/** Sorts and merges ranges. */
export function normalize(ranges: Ranges): Ranges {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [from, to] of sorted) {
    const last = merged.at(-1);
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

/** Every code point not in `ranges`. */
export function complement(ranges: Ranges): Ranges {
  const result: [number, number][] = [];
  let next = 0;
  for (const [from, to] of normalize(ranges)) {
    if (from > next) result.push([next, from - 1]);
    next = to + 1;
  }
  if (next <= MAX_CODE_POINT) result.push([next, MAX_CODE_POINT]);
  return result;
}

/** True when the two sets share a code point. */
export function intersects(a: Ranges, b: Ranges): boolean {
  return a.some(([from, to]) => b.some(([other, otherTo]) => from <= otherTo && other <= to));
}

/** The class escape `\d \D \w \W \s \S` as ranges. */
export function classEscapeRanges(value: "d" | "D" | "w" | "W" | "s" | "S"): Ranges {
  const base = value === "d" || value === "D" ? DIGITS : value === "w" || value === "W" ? WORD : JS_WHITESPACE;
  return value === value.toLowerCase() ? base : complement(base);
}
