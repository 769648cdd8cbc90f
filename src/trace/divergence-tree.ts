import { plural } from "../exits/excerpt.js";

/** Trials merged by the calls they made: a branch per next call, with how many took it and how many passed. */
export interface DivergenceNode {
  /** The calls of this branch, in order (several when no trial left the branch between them); `[]` at the root. */
  readonly steps: readonly string[];
  /** Trials that took this branch. */
  readonly count: number;
  /** Of them, trials that passed. */
  readonly passed: number;
  /** Where they went next; a trial that stopped here is an `end` branch. */
  readonly children: readonly DivergenceNode[];
  /** The trials that made no further call. */
  readonly end?: true;
}

interface Building {
  count: number;
  passed: number;
  readonly next: Map<string, Building>;
  stopped: { count: number; passed: number };
}

/** The trials' paths as a prefix tree, branches in the order trials first took them, straight runs merged. */
export function divergenceTree(runs: readonly { readonly path: readonly string[]; readonly passed: boolean }[]): DivergenceNode {
  const root = building();
  for (const run of runs) {
    let node = root;
    const tally = (at: { count: number; passed: number }) => {
      at.count += 1;
      if (run.passed) at.passed += 1;
    };
    tally(root);
    for (const step of run.path) {
      const child = node.next.get(step) ?? building();
      node.next.set(step, child);
      tally(child);
      node = child;
    }
    tally(node.stopped);
  }
  return finish([], root);
}

function building(): Building {
  return { count: 0, passed: 0, next: new Map(), stopped: { count: 0, passed: 0 } };
}

function finish(steps: readonly string[], node: Building): DivergenceNode {
  // A branch every trial went on from, with no trial stopping: one line with the next step.
  if (node.next.size === 1 && node.stopped.count === 0 && steps.length > 0) {
    const [[step, child]] = [...node.next] as [[string, Building]];
    return finish([...steps, step], child);
  }
  const children = [...node.next].map(([step, child]) => finish([step], child));
  if (node.stopped.count > 0 && node.next.size > 0)
    children.push({ steps: [], count: node.stopped.count, passed: node.stopped.passed, children: [], end: true });
  return { steps, count: node.count, passed: node.passed, children };
}

/** The tree as terminal lines: `├ search → book  17 · 100% passed`. */
export function divergenceLines(root: DivergenceNode): string[] {
  const lines: string[] = [];
  const label = (node: DivergenceNode) =>
    `${node.end ? "(stopped)" : node.steps.join(" → ")}  ${node.count} · ${Math.round((node.passed / Math.max(node.count, 1)) * 100)}% passed`;
  const walk = (node: DivergenceNode, indent: string) => {
    node.children.forEach((child, i) => {
      const last = i === node.children.length - 1;
      lines.push(`${indent}${last ? "└" : "├"} ${label(child)}`);
      walk(child, `${indent}${last ? "  " : "│ "}`);
    });
  };
  lines.push(`${plural(root.count, "trial")} · ${Math.round((root.passed / Math.max(root.count, 1)) * 100)}% passed`);
  if (root.children.length === 0) lines.push("└ (no tool calls)");
  walk(root, "");
  return lines;
}
