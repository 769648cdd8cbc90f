// Real Jest on the built package, with `tooltrace/jest` as its only setup (no MSW): a session's `llm` answers the
// OpenAI SDK and the AI SDK, HTTP mocks answer `fetch` and `node:http`, strict mode refuses what nothing answered,
// and the run stays hermetic, in CommonJS and in ESM mode. Jest gives each file a realm of its own whose `fetch`
// is the outer realm's: before, createSession refused `llm` ("can neither see `fetch`'s dispatcher"). One worker
// runs both files of a mode, each asserting its own answers: one file's guard, mocks or node:http catcher left
// behind would answer (or break) the next file's requests.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { addressBeyondLoopback, type CountingUpstream, startCountingUpstream } from "../fixtures/counting-process.js";
import { runJest, runJestFiles } from "../fixtures/jest-run.js";
import { packageFile } from "../fixtures/versions.js";

const project = join(import.meta.dirname, "../fixtures/jest-wire-project");
/** Whether the installed `ai` has no CommonJS build (ai 7, in the matrix's latest majors). */
const aiIsEsmOnly = !Object.hasOwn(
  (JSON.parse(readFileSync(packageFile("ai", "package.json"), "utf8")) as { exports: { ".": object } }).exports["."],
  "require",
);
let local: CountingUpstream;
let beyond: CountingUpstream;

beforeAll(async () => {
  [local, beyond] = await Promise.all([startCountingUpstream(), startCountingUpstream(addressBeyondLoopback())]);
});
afterAll(() => {
  local?.stop();
  beyond?.stop();
});

describe.each([
  { mode: "cjs", config: "jest.config.cjs", esm: false },
  { mode: "esm", config: "jest.config.mjs", esm: true },
])("under Jest ($mode), with the setup entry alone, two files in one worker", ({ mode, config, esm }) => {
  let results: Map<string, { status: string; failureMessages: string[] }>;
  beforeAll(async () => {
    const env = { COUNTING_URL: local.url, BEYOND_URL: beyond.url, TOOLTRACE_STRICT: "", TOOLTRACE_LIVE: "", NODE_OPTIONS: "" };
    results = await runJest(join(project, config), { esm, env });
  }, 90_000);
  const files = [`${mode} A`, `${mode} B`];
  const status = (title: string) => results.get(title)?.status;
  const failure = (title: string) => results.get(title)?.failureMessages.join("\n") ?? "";

  test.each(files)("%s: the session's llm answers the OpenAI SDK and the AI SDK's OpenAI provider", (file) => {
    expect(status(`${file}: the session's llm answers the OpenAI SDK`), failure(`${file}: the session's llm answers the OpenAI SDK`)).toBe(
      "passed",
    );
    const aiSdk = `${file}: the session's llm answers the AI SDK's OpenAI provider`;
    // ai 7 is ES modules only: in Jest's CommonJS mode it cannot be required, and the case is skipped.
    expect(status(aiSdk), failure(aiSdk)).toBe(mode === "cjs" && aiIsEsmOnly ? "pending" : "passed");
  });

  // The Google Gen AI SDK's dispatcher reads Node's from the realm's global: before, Jest's had none ("Undici
  // globalDispatcher is not available"), in Jest without tooltrace too.
  test.each(files)("%s: the session's llm answers the Google Gen AI SDK", (file) => {
    const title = `${file}: the session's llm answers the Google Gen AI SDK`;
    expect(status(title), failure(title)).toBe("passed");
  });

  test.each(files)("%s: HTTP mocks answer a plain fetch and node:http", (file) => {
    const title = `${file}: an HTTP mock answers a plain fetch and node:http`;
    expect(status(title), failure(title)).toBe("passed");
  });

  test.each(files)("%s: strict mode refuses an unstubbed request, which never reaches the server", (file) => {
    const title = `${file}: strict mode refuses an unstubbed request`;
    expect(status(title)).toBe("failed");
    expect(failure(title)).toContain(`strict mode: GET ${local.url}/strict-${file.replace(" ", "%20")} would have gone out`);
    expect(local.events.filter((line) => line.includes("/strict-"))).toEqual([]);
    const outside = `${file}: outside sessions, a request to this machine goes out`;
    expect(status(outside), failure(outside)).toBe("passed");
    expect(local.events).toContain(`HTTP GET /outside-${file.replace(" ", "%20")}`);
  });

  test.each(files)("%s: a request beyond loopback is refused, with the Jest config's advice", (file) => {
    const refusal = failure(`${file}: the run is hermetic: a request beyond loopback is refused`);
    expect(refusal).toContain(`GET ${beyond.url}/hermetic-${file.replace(" ", "%20")} was sent, and tooltrace refused it`);
    expect(refusal).toContain(`globals: { tooltrace: { allowHosts: ["${new URL(beyond.url).host}"] } } in the Jest config`);
    expect(refusal).not.toContain("tooltrace({");
    expect(beyond.events).toEqual([]);
  });
});

// The guards at the process's edges patch Node's modules and bindings, which every file of a Jest worker shares:
// before, each file's guards stayed under the next file's, and kept that file's realm (all its modules) alive,
// so --detectLeaks failed every file. They are put back when a file ends; one realm, the worker's first file's,
// is still kept by something that runs once per process.
test("under Jest, a worker's files' realms are freed after them (--detectLeaks)", async () => {
  const config = join(import.meta.dirname, "../fixtures/jest-leak-project/jest.config.cjs");
  const files = await runJestFiles(config, { esm: false, env: { NODE_OPTIONS: "" }, args: ["--detectLeaks"] });
  expect(files.size).toBe(5);
  const leaking = [...files].filter(([, message]) => message.includes("leaking memory"));
  expect(leaking.length, leaking.map(([name]) => name).join("\n")).toBeLessThanOrEqual(1);
  expect([...files.values()].filter((message) => message !== "" && !message.includes("leaking memory"))).toEqual([]);
}, 90_000);
