import type { JsonDifference } from "../../src/trace/json-diff.js";
import { keyOf, type ActualStep, type ExpectedStep, type StepFit } from "./trajectory-steps.js";

/** How an expected trajectory is held against the recorded one (agentevals' match modes). */
export type TrajectoryOrder = "strict" | "unordered" | "subset" | "superset";

/** One row of the aligned trajectories. */
export type AlignedRow =
  | { readonly kind: "same"; readonly expected: number; readonly actual: number }
  | { readonly kind: "different"; readonly expected: number; readonly actual: number; readonly differences: readonly JsonDifference[] }
  | {
      readonly kind: "missing";
      readonly expected: number;
      readonly near?: { readonly actual: number; readonly differences: readonly JsonDifference[] };
    }
  | { readonly kind: "extra"; readonly actual: number }
  | { readonly kind: "moved"; readonly expected: number; readonly actual: number };

export interface Alignment {
  readonly pass: boolean;
  readonly rows: readonly AlignedRow[];
}

type Fit = (expected: number, actual: number) => StepFit;

/**
 * Aligns the steps under a match mode. `strict`: the same steps in the same order, nothing else. `unordered`:
 * the same steps in any order. `superset`: every expected step, others may be made too. `subset`: nothing but
 * expected steps, some may be left out.
 */
export function alignTrajectory(
  order: TrajectoryOrder,
  expected: readonly ExpectedStep[],
  actual: readonly ActualStep[],
  judge: Fit,
): Alignment {
  return order === "strict" ? alignInOrder(expected, actual, judge) : alignAnyOrder(order, expected, actual, judge);
}

/**
 * An alignment that keeps the order of both sides and pairs as much as it can: a pair that fits scores 3, a pair
 * of the same tool that differs 1, so a swapped pair shows as moved rather than as two differences.
 */
function alignInOrder(expected: readonly ExpectedStep[], actual: readonly ActualStep[], judge: Fit): Alignment {
  const n = expected.length;
  const m = actual.length;
  const fits = new Map<number, StepFit>();
  const fitOf = (i: number, j: number) => {
    const key = i * (m + 1) + j;
    let result = fits.get(key);
    if (result === undefined) {
      result = judge(i, j);
      fits.set(key, result);
    }
    return result;
  };
  const score = (i: number, j: number) => (expected[i]?.key !== keyOf(actual[j] as ActualStep) ? 0 : fitOf(i, j).fits ? 3 : 1);
  const table = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) {
      const row = table[i] as Uint32Array;
      const below = table[i + 1] as Uint32Array;
      const pair = score(i, j);
      row[j] = Math.max(pair > 0 ? (below[j + 1] as number) + pair : 0, below[j] as number, row[j + 1] as number);
    }
  const rows: AlignedRow[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    const pair = i < n && j < m ? score(i, j) : 0;
    const here = table[i]?.[j] ?? 0;
    if (pair > 0 && here === (table[i + 1]?.[j + 1] ?? 0) + pair) {
      const result = fitOf(i, j);
      rows.push(
        result.fits
          ? { kind: "same", expected: i, actual: j }
          : { kind: "different", expected: i, actual: j, differences: result.differences },
      );
      i += 1;
      j += 1;
    } else if (j < m && (i >= n || (table[i]?.[j + 1] ?? 0) >= (table[i + 1]?.[j] ?? 0))) {
      rows.push({ kind: "extra", actual: j });
      j += 1;
    } else {
      rows.push({ kind: "missing", expected: i });
      i += 1;
    }
  }
  return { pass: rows.every((row) => row.kind === "same"), rows: markMoved(rows, expected, actual, fitOf) };
}

/** A step left out in one place and made in another is shown once, as moved. */
function markMoved(rows: AlignedRow[], expected: readonly ExpectedStep[], actual: readonly ActualStep[], judge: Fit): AlignedRow[] {
  const extras = rows.filter((row): row is Extract<AlignedRow, { kind: "extra" }> => row.kind === "extra");
  const taken = new Set<number>();
  const out: AlignedRow[] = [];
  for (const row of rows) {
    if (row.kind === "missing") {
      const partner = extras.find(
        (extra) =>
          !taken.has(extra.actual) &&
          expected[row.expected]?.key === keyOf(actual[extra.actual] as ActualStep) &&
          judge(row.expected, extra.actual).fits,
      );
      if (partner) {
        taken.add(partner.actual);
        out.push({ kind: "moved", expected: row.expected, actual: partner.actual });
        continue;
      }
    }
    out.push(row);
  }
  return out.filter((row) => row.kind !== "extra" || !taken.has(row.actual));
}

/** A maximum matching of expected to actual steps (augmenting paths), then the left-overs on either side. */
function alignAnyOrder(
  order: Exclude<TrajectoryOrder, "strict">,
  expected: readonly ExpectedStep[],
  actual: readonly ActualStep[],
  judge: Fit,
): Alignment {
  const fits = expected.map((_, i) => actual.map((_, j) => judge(i, j).fits));
  const partnerOfActual = new Array<number>(actual.length).fill(-1);
  const tryAssign = (i: number, seen: boolean[]): boolean => {
    for (let j = 0; j < actual.length; j++) {
      if (!fits[i]?.[j] || seen[j]) continue;
      seen[j] = true;
      const current = partnerOfActual[j] as number;
      if (current === -1 || tryAssign(current, seen)) {
        partnerOfActual[j] = i;
        return true;
      }
    }
    return false;
  };
  for (let i = 0; i < expected.length; i++) tryAssign(i, new Array<boolean>(actual.length).fill(false));
  const partnerOfExpected = new Array<number>(expected.length).fill(-1);
  partnerOfActual.forEach((i, j) => {
    if (i !== -1) partnerOfExpected[i] = j;
  });
  const rows: AlignedRow[] = actual.map((_, j) => {
    const i = partnerOfActual[j] as number;
    return i === -1 ? { kind: "extra", actual: j } : { kind: "same", expected: i, actual: j };
  });
  const spare = new Set(rows.filter((row) => row.kind === "extra").map((row) => (row as { actual: number }).actual));
  partnerOfExpected.forEach((j, i) => {
    if (j !== -1) return;
    const near = [...spare].find((candidate) => expected[i]?.key === keyOf(actual[candidate] as ActualStep));
    rows.push(
      near === undefined
        ? { kind: "missing", expected: i }
        : { kind: "missing", expected: i, near: { actual: near, differences: judge(i, near).differences } },
    );
  });
  const missing = rows.some((row) => row.kind === "missing");
  const extra = rows.some((row) => row.kind === "extra");
  const pass = order === "unordered" ? !missing && !extra : order === "superset" ? !missing : !extra;
  return { pass, rows };
}
