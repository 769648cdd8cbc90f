/** Returns the known name closest to `name` (a case slip, a typo of one or two letters), if any. */
export function suggestName(name: string, known: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    if (candidate.toLowerCase() === lower) return candidate;
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      bestDistance = distance;
      best = candidate;
    }
  }
  const allowed = Math.max(1, Math.min(3, Math.floor(name.length / 4)));
  return bestDistance <= allowed ? best : undefined;
}

/** Edits from `a` to `b`, a swap of two neighbouring letters counting as one (`inti` is one from `init`). */
function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        current[j] = Math.min(current[j] ?? 0, (before[j - 2] ?? 0) + 1);
      }
    }
    before = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}
