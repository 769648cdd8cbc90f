import { seededRandom } from "../base/seeded-random.js";
import type { Fault, FiredFault } from "./types.js";

/**
 * A list of faults and the calls it has seen: `next()` counts one call and says which fault (if any) fires
 * on it. A fault with `probability` draws one number per call from its own generator, seeded by the
 * session's seed and the fault's place, so a trial with the same seed meets the same faults.
 */
export class FaultPlan {
  private calls = 0;
  private readonly randoms: ((() => number) | undefined)[];

  constructor(
    private readonly faults: readonly Fault[],
    private readonly where: string,
    seed: number,
  ) {
    this.randoms = faults.map((fault, index) => (fault.probability === undefined ? undefined : seededRandom(mix(seed, index))));
  }

  get size(): number {
    return this.faults.length;
  }

  /** Counts one call and returns the fault that fires on it, if any. */
  next(): FiredFault | undefined {
    this.calls += 1;
    const call = this.calls;
    let fired: FiredFault | undefined;
    for (const [index, fault] of this.faults.entries()) {
      // Every generator draws on every call, so one fault's firing does not shift another's sequence.
      const draw = this.randoms[index]?.();
      if (fired !== undefined) continue;
      const fires = fault.calls !== undefined ? fault.calls.includes(call) : draw !== undefined ? draw < (fault.probability ?? 0) : true;
      if (fires) fired = { fault, where: `${this.where}[${index}]`, call };
    }
    return fired;
  }
}

/** The fault plans of a set of owners (HTTP mocks, stub rules), each made at its owner's first call. */
export class FaultPlans {
  private readonly plans = new Map<string, FaultPlan>();

  constructor(private readonly seed: number) {}

  /** Counts a call owner `id` matched against its `faults`: the one that fires, if any. */
  next(id: string, faults: readonly Fault[] | undefined, where: string): FiredFault | undefined {
    if (faults === undefined) return undefined;
    let plan = this.plans.get(id);
    if (plan === undefined) {
      plan = new FaultPlan(faults, where, this.seed);
      this.plans.set(id, plan);
    }
    return plan.next();
  }
}

/** A seed per fault: the session's seed and the fault's place, mixed so neighbours differ. */
function mix(seed: number, index: number): number {
  return Math.imul((seed ^ 0x9e3779b9) >>> 0, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35);
}
