import { expect, test } from "vitest";
import { matchers } from "../../matchers/all.js";
import { MATCHER_NAMES } from "../../src/lifecycle/lazy-matchers.js";

test("the plugin registers every matcher (its list of names is matchers/all.ts's)", () => {
  expect([...MATCHER_NAMES].sort()).toEqual(Object.keys(matchers).sort());
});
