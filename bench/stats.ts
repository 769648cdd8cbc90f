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

/** The value at quantile `q` (0–1) of a list, interpolated between neighbours. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = sorted[Math.floor(at)] as number;
  const high = sorted[Math.ceil(at)] as number;
  return low + (high - low) * (at - Math.floor(at));
}

/** `median (IQR q1–q3)` of samples, each formatted with `format`. */
export function withSpread(values: readonly number[], format: (value: number) => string): string {
  return `${format(median(values))} (IQR ${format(quantile(values, 0.25))}–${format(quantile(values, 0.75))})`;
}

/** The ratio of paired samples (ours[i] / baseline[i], measured back to back), as `median x (IQR q1–q3)`. */
export function ratioWithSpread(ours: readonly number[], baseline: readonly number[]): string {
  const ratios = ours.map((value, i) => value / (baseline[i] as number));
  return `${median(ratios).toFixed(2)}x (IQR ${quantile(ratios, 0.25).toFixed(2)}–${quantile(ratios, 0.75).toFixed(2)})`;
}
