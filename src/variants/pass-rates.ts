/**
 * pass^k: the chance that k trials drawn without replacement from `count`, of which `passed` passed, all pass
 * (the unbiased estimator of τ-bench's metric). 1 when every trial passed, 0 when fewer than k did.
 */
export function passHatK(count: number, passed: number, k: number): number {
  if (k > count) return Number.NaN;
  return choose(passed, k) / choose(count, k);
}

/** pass@k: the chance that at least one of k trials drawn from `count` passes. */
export function passAtK(count: number, passed: number, k: number): number {
  if (k > count) return Number.NaN;
  return 1 - choose(count - passed, k) / choose(count, k);
}

/** n choose k, as a float (exact enough for the few hundred trials a test runs). */
function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let result = 1;
  for (let i = 1; i <= Math.min(k, n - k); i++) result = (result * (n - Math.min(k, n - k) + i)) / i;
  return result;
}
