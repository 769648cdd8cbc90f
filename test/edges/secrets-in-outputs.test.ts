import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, test } from "vitest";
import { packageFile } from "../fixtures/versions.js";

const project = join(import.meta.dirname, "../fixtures/secrets-project");
const nonce = Math.random().toString(36).slice(2, 8);
/** The values the fixture plants (1-10, 7 through the environment), as it derives them. */
const planted = Array.from({ length: 10 }, (_, i) => `leak${String(i + 1).padStart(2, "0")}x${nonce}Q`);

/** OpenTelemetry's JS SDK needs Node 22.15: below it the export is refused, so it is scanned where it runs. */
const otelRuns = (() => {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  return major > 22 || (major === 22 && minor >= 15);
})();
let collector: Server;
let otlp = "";
const exported: Buffer[] = [];
beforeAll(async () => {
  collector = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      exported.push(Buffer.concat(chunks));
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
  otlp = `http://127.0.0.1:${(collector.address() as { port: number }).port}/v1/traces`;
});
afterAll(() => new Promise<void>((resolve) => collector.close(() => resolve())));

/** Every file under `folder`, by its path relative to it, as text (bytes read as Latin-1: none is lost). */
function files(folder: string, prefix = ""): Map<string, string> {
  const found = new Map<string, string>();
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) for (const [inner, text] of files(path, `${prefix}${name}/`)) found.set(inner, text);
    else found.set(`${prefix}${name}`, readFileSync(path, "latin1"));
  }
  return found;
}

test("no secret in anything tooltrace writes: cassette, viewer report, JUnit, GitHub summary, JSON reporter, OpenTelemetry, the log", {
  timeout: 90_000,
}, async () => {
  const out = mkdtempSync(join(tmpdir(), "tooltrace-outputs-"));
  const result = await promisify(execFile)(
    process.execPath,
    [packageFile("vitest", "vitest.mjs"), "run", "--config", join(project, "vitest.config.ts")],
    {
      cwd: project,
      env: {
        ...process.env,
        CI: "1",
        GITHUB_ACTIONS: "true",
        GITHUB_STEP_SUMMARY: join(out, "summary.md"),
        SECRETS_OUT: out,
        SECRETS_NONCE: nonce,
        TOOLTRACE_TEST_SERVICE_TOKEN: planted[6],
        ...(otelRuns ? { SECRETS_OTLP: otlp } : {}),
      },
    },
  ).catch((error: { stdout: string; stderr: string }) => error);
  const outputs = files(out);
  outputs.set("(stdout)", result.stdout);
  outputs.set("(stderr)", result.stderr);
  if (otelRuns) outputs.set("(OpenTelemetry export)", Buffer.concat(exported).toString("latin1"));
  // Each output is there and holds the run: the eval failed, its calls are in the report.
  expect([...outputs.keys()].sort()).toEqual(
    expect.arrayContaining(["cassette.json", "junit.xml", "report/index.html", "summary.md", "turns.json"]),
  );
  expect(result.stdout).toContain("1 failed");
  for (const name of ["cassette.json", "junit.xml", "report/index.html", "turns.json", "(stdout)"])
    expect(outputs.get(name), name).toContain("[redacted]");
  expect(outputs.get("report/index.html")).toContain("fetch_binary");
  if (otelRuns) expect(outputs.get("(OpenTelemetry export)")).toContain("fetch_binary");
  const leaks = [...outputs].flatMap(([name, text]) =>
    planted.flatMap((value, i) => (text.includes(value) ? [`${name}: planted ${i + 1}`] : [])),
  );
  expect(leaks).toEqual([]);
  // Paths relative to the project: no artifact shows the runner's layout.
  for (const name of ["report/index.html", "summary.md", "turns.json"]) expect(outputs.get(name)?.includes(project), name).toBe(false);
  expect(outputs.get("summary.md")).toContain("secrets.eval.ts");
});
