import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import { runJest } from "../fixtures/jest-run.js";
import { packageFile } from "../fixtures/versions.js";

const root = join(import.meta.dirname, "../..");

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
  // Before, "A dynamic import callback was invoked without --experimental-vm-modules": the build kept `import()`.
  const mcp = results.get("an MCP server a session serves, called over HTTP by a client");
  expect(mcp?.status, mcp?.failureMessages.join("\n")).toBe("passed");
}, 60_000);

// Jest loads a custom reporter with `require` (or `import`) and takes its default export.
test("tooltrace/jest-reporter loads from the build as Jest loads a reporter, both ways, and type-checks in a user's config", async () => {
  const script = `
    const required = require("tooltrace/jest-reporter");
    import("tooltrace/jest-reporter").then((imported) => console.log(JSON.stringify({
      required: typeof required.default === "function" && required.default === required.TooltraceJestReporter,
      imported: typeof imported.default === "function" && imported.default === imported.TooltraceJestReporter,
      hooks: ["onRunStart", "onTestFileResult", "onRunComplete"].filter((hook) => typeof required.default.prototype[hook] === "function"),
    })));`;
  const { stdout } = await promisify(execFile)(process.execPath, ["-e", script], { cwd: root });
  expect(JSON.parse(stdout)).toEqual({ required: true, imported: true, hooks: ["onRunStart", "onTestFileResult", "onRunComplete"] });
  // The package's declarations, as a user's strict project reads them (an unused @ts-expect-error fails too).
  const file = join(import.meta.dirname, "../fixtures/jest-report-project/reporter-types.ts");
  const flags = ["--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--types", "node"];
  const tsc = await promisify(execFile)(
    process.execPath,
    [packageFile("typescript", "bin", "tsc"), ...flags, "--skipLibCheck", "false", file],
    {
      cwd: root,
    },
  ).catch((error: { stdout: string }) => error);
  expect(tsc.stdout).toBe("");
}, 60_000);
