import { join } from "node:path";
import { expect, test } from "vitest";
import { runJest } from "../fixtures/jest-run.js";

// Real Jest (ESM through --experimental-vm-modules) on the built package, with `tooltrace/jest` as its setup file.
test("the Jest entry registers the matchers, restores tools and fails strict violations", async () => {
  const results = await runJest(join(import.meta.dirname, "../fixtures/jest-project/jest.config.mjs"), { esm: true });
  expect(results.get("matchers are registered and stubs answer")?.status).toBe("passed");
  expect(results.get("tools were restored after the previous test")?.status).toBe("passed");
  const strict = results.get("a strict violation fails the test after it ends");
  expect(strict?.status).toBe("failed");
  expect(strict?.failureMessages.join("\n")).toContain("strict mode: no stub rule matched list_tasks({})");
}, 60_000);

// Jest in CommonJS, its default, without --experimental-vm-modules: before, "Must use import to load ES Module".
test('under Jest in CommonJS, without flags, the setup entry and require("tooltrace") load tooltrace\'s CommonJS build', async () => {
  const config = join(import.meta.dirname, "../fixtures/jest-cjs-project/jest.config.cjs");
  const results = await runJest(config, { esm: false, env: { NODE_OPTIONS: "" } });
  expect(results.get("matchers are registered and stubs answer")?.status).toBe("passed");
  expect(results.get("tools were restored after the previous test")?.status).toBe("passed");
  const unused = results.get("an unused rule fails the test after it ends (the Jest entry's default policy)");
  expect(unused?.status).toBe("failed");
  expect(unused?.failureMessages.join("\n")).toContain("stub rules never used: never");
}, 60_000);
