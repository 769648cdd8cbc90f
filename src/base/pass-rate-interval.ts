/** A share with its 95% interval. */
export interface RateInterval {
  readonly rate: number;
  readonly low: number;
  readonly high: number;
}

/** The change of a share between two runs, with its 95% interval. */
export interface RateChange {
  readonly change: number;
  readonly low: number;
  readonly high: number;
  /** The interval leaves out 0: the change is more than the trials' chance. */
  readonly significant: boolean;
}

const Z = 1.959964;

/** Wilson's score interval for `passed` of `count` at 95%: honest at small counts and at 0% or 100%. */
export function wilsonInterval(passed: number, count: number): RateInterval {
  if (count === 0) return { rate: 0, low: 0, high: 1 };
  const rate = passed / count;
  const z2 = Z * Z;
  const centre = (rate + z2 / (2 * count)) / (1 + z2 / count);
  const half = (Z * Math.sqrt((rate * (1 - rate)) / count + z2 / (4 * count * count))) / (1 + z2 / count);
  return { rate, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** Newcombe's interval for the difference of two shares (method 10, from the two Wilson intervals). */
export function rateChange(before: RateInterval, after: RateInterval): RateChange {
  const change = after.rate - before.rate;
  const low = change - Math.sqrt((after.rate - after.low) ** 2 + (before.high - before.rate) ** 2);
  const high = change + Math.sqrt((after.high - after.rate) ** 2 + (before.rate - before.low) ** 2);
  return { change, low, high, significant: low > 0 || high < 0 };
}
