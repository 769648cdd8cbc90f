/** The median of a list of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Times `fn` `samples` times (after `warmup` runs) and returns each sample in nanoseconds per operation. */
export async function sample(samples: number, warmup: number, operations: number, fn: () => unknown): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const results: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = process.hrtime.bigint();
    await fn();
    results.push(Number(process.hrtime.bigint() - started) / operations);
  }
  return results;
}

export function formatNs(ns: number): string {
  if (ns >= 1000) return `${(ns / 1000).toFixed(2)} µs`;
  return ns >= 10 ? `${ns.toFixed(0)} ns` : `${ns.toFixed(2)} ns`;
}

export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`;
}

/**
 * Runs `measure(true)` (ours) and `measure(false)` (the baseline) `samples` times after `warmup` rounds,
 * alternating which goes first (ABBA), so warm-up and drift favour neither; returns both series.
 */
export async function interleaved(
  samples: number,
  warmup: number,
  measure: (ours: boolean) => Promise<number>,
): Promise<{ ours: number[]; baseline: number[] }> {
  const ours: number[] = [];
  const baseline: number[] = [];
  for (let i = 0; i < samples + warmup; i++) {
    const oursFirst = i % 2 === 0;
    const first = await measure(oursFirst);
    const second = await measure(!oursFirst);
    if (i < warmup) continue;
    ours.push(oursFirst ? first : second);
    baseline.push(oursFirst ? second : first);
  }
  return { ours, baseline };
}
