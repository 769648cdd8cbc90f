import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import { packageFile } from "../fixtures/versions.js";

const run = promisify(execFile);

// `npm test` builds dist/ before Vitest starts; these tests use it the way an installed package is used.
test("every documented entry point imports from the build", async () => {
  const script = `
    const core = await import("tooltrace");
    const vitest = await import("tooltrace/vitest");
    const { matchers } = await import("tooltrace/matchers");
    const aiSdk = await import("tooltrace/ai-sdk");
    const wire = await import("tooltrace/wire");
    const agentsSdk = await import("tooltrace/agents-sdk");
    console.log(JSON.stringify({
      core: ["createSession", "mockModel", "StubConfigError"].every((name) => name in core),
      setup: vitest.tooltrace().config.handler().test.setupFiles[0],
      matchers: Object.keys(matchers).sort(),
      aiSdk: typeof aiSdk.aiSdkAgent,
      wire: typeof wire.createLlmAnswer + typeof wire.serveOnLoopback,
      agentsSdk: typeof agentsSdk.agentsSdkAgent,
      mcp: typeof core.mcpTools,
    }));`;
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script]);
  const result = JSON.parse(stdout) as {
    core: boolean;
    setup: string;
    matchers: string[];
    aiSdk: string;
    wire: string;
    agentsSdk: string;
    mcp: string;
  };
  expect(result.core).toBe(true);
  expect(result.setup).toMatch(/dist[\\/]vitest-setup\.js$/);
  expect(result.matchers).toContain("toHaveCalledTool");
  expect(result.aiSdk).toBe("function");
  expect([result.wire, result.agentsSdk, result.mcp]).toEqual(["functionfunction", "function", "function"]);
});

test("a project using the built plugin runs its agent evals", async () => {
  const config = join(import.meta.dirname, "../fixtures/dist-project/vitest.config.ts");
  const { stdout } = await run(process.execPath, [packageFile("vitest", "vitest.mjs"), "run", "--config", config], {
    env: { ...process.env, CI: "1" },
  });
  expect(stdout).toMatch(/2 passed/);
  // A Vitest run of its own: a few seconds alone, more beside two other files' child processes.
}, 60_000);

test("a newcomer's first eval: found without an include pattern, typed without tsconfig `types`, no sourcemap warning", async () => {
  const project = join(import.meta.dirname, "../fixtures/newcomer-project");
  await run(process.execPath, [packageFile("typescript", "bin", "tsc"), "-p", join(project, "tsconfig.json")]);
  const { stdout, stderr } = await run(
    process.execPath,
    [packageFile("vitest", "vitest.mjs"), "run", "--config", join(project, "vitest.config.ts")],
    { env: { ...process.env, CI: "1" } },
  );
  expect(stdout).toMatch(/todo\.eval\.ts/);
  expect(stdout).toMatch(/1 passed/);
  expect(`${stdout}${stderr}`).not.toMatch(/Sourcemap/);
}, 60_000);

// A test file runs both builds: `tooltrace` and the setup are CommonJS; `tooltrace/msw`, `/agents-sdk` and a YAML
// eval file's runner load the ES chunks. An error one threw is an instance of the other's class.
test("instanceof holds across the ES and CommonJS builds for tooltrace's errors", async () => {
  const script = `
    import { createRequire } from "node:module";
    import { readdirSync } from "node:fs";
    import { join } from "node:path";
    const cjs = createRequire(import.meta.url)("tooltrace");
    const chunks = join(createRequire(import.meta.url).resolve("tooltrace"), "..", "chunks");
    const named = async (prefix) => Object.values(await import(join(chunks, readdirSync(chunks).find((file) => file.startsWith(prefix) && file.endsWith(".js")))));
    const pick = (values, name) => values.find((value) => typeof value === "function" && value.name === name);
    const setup = await named("setup-");
    const main = await named("main-");
    const esm = { useHttpMocks: pick(main, "useHttpMocks"), StubConfigError: pick(setup, "StubConfigError"), TooltraceError: pick(setup, "TooltraceError") };
    const refusal = (copy) => { try { copy.useHttpMocks([{ id: "x" }]); } catch (error) { return error; } };
    const fromCjs = refusal(cjs);
    const fromEsm = refusal(esm);
    const abort = new cjs.MiddlewareAbort("stop");
    console.log(JSON.stringify({
      separate: esm.StubConfigError !== cjs.StubConfigError,
      refusals: [fromCjs instanceof esm.StubConfigError, fromEsm instanceof cjs.StubConfigError, fromCjs instanceof cjs.StubConfigError],
      abort: [abort instanceof esm.TooltraceError, abort instanceof esm.StubConfigError],
      plain: [new Error("x") instanceof esm.TooltraceError, new esm.TooltraceError("x") instanceof cjs.MiddlewareAbort, fromEsm instanceof cjs.TooltraceError],
    }));`;
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script]);
  expect(JSON.parse(stdout)).toEqual({
    separate: true,
    refusals: [true, true, true],
    abort: [true, false],
    plain: [false, false, false],
  });
});

// scripts/build.mjs (CJS_BRIDGES): these entries' ES modules load the CommonJS build, the copy the setup files load.
test("an import of tooltrace, /matchers, /wire, /cli and /server gets the CommonJS build's own functions", async () => {
  const script = `
    import { createRequire } from "node:module";
    const require = createRequire(import.meta.url);
    const same = {};
    for (const [entry, name] of [["tooltrace", "createSession"], ["tooltrace/matchers", "matchers"], ["tooltrace/wire", "createLlmAnswer"], ["tooltrace/cli", "cliAgent"], ["tooltrace/server", "remoteAgent"]])
      same[entry] = (await import(entry))[name] === require(entry)[name] && require(entry)[name] !== undefined;
    console.log(JSON.stringify(same));`;
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script]);
  expect(JSON.parse(stdout)).toEqual({
    tooltrace: true,
    "tooltrace/matchers": true,
    "tooltrace/wire": true,
    "tooltrace/cli": true,
    "tooltrace/server": true,
  });
});
