import { expect, test } from "vitest";
import { divergenceLines, divergenceTree } from "../../src/trace/divergence-tree.js";

const run = (path: string[], passed: boolean) => ({ path, passed });

test("trials merge into a prefix tree: a branch per next call, counts and pass rates, straight runs on one line", () => {
  const tree = divergenceTree([
    run(["search", "book", "email"], true),
    run(["search", "book", "email"], true),
    run(["search"], false),
    run(["search", "refine", "book", "email"], true),
    run([], false),
  ]);
  expect(divergenceLines(tree)).toEqual([
    "5 trials · 60% passed",
    "├ search  4 · 75% passed",
    "│ ├ book → email  2 · 100% passed",
    "│ ├ refine → book → email  1 · 100% passed",
    "│ └ (stopped)  1 · 0% passed",
    "└ (stopped)  1 · 0% passed",
  ]);
  expect(tree.children[0]).toMatchObject({ steps: ["search"], count: 4, passed: 3 });
});

test("trials that all took one path are one line; trials without calls say so", () => {
  expect(divergenceLines(divergenceTree([run(["a", "b"], true), run(["a", "b"], false)]))).toEqual([
    "2 trials · 50% passed",
    "└ a → b  2 · 50% passed",
  ]);
  expect(divergenceLines(divergenceTree([run([], true)]))).toEqual(["1 trial · 100% passed", "└ (no tool calls)"]);
});
