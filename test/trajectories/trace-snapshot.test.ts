import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { createSession, traceSnapshot } from "tooltrace";
import { flightAgent, flightTools } from "../fixtures/flight-agent.js";
import { majorOf, packageFile } from "../fixtures/versions.js";

const project = join(import.meta.dirname, "../fixtures/snapshot-project");

/** Runs the snapshot project as a developer would (not in CI, so new snapshots are written). */
async function run(snapshots: string, env: Record<string, string>, ...args: string[]) {
  const { CI: _ci, GITHUB_ACTIONS: _gh, ...rest } = process.env;
  const result = await promisify(execFile)(
    process.execPath,
    [packageFile("vitest", "vitest.mjs"), "run", "--config", join(project, "vitest.config.ts"), ...args],
    { env: { ...rest, FIXTURE_SNAPSHOTS: snapshots, NO_COLOR: "1", ...env } },
  ).then(
    (ok) => ({ code: 0, output: ok.stdout + ok.stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: error.stdout + error.stderr }),
  );
  return result;
}

// Each test runs Vitest several times in a row: beside two other files' child processes, over a minute.
describe("toMatchTraceSnapshot on Vitest's snapshot state", { timeout: 180_000 }, () => {
  test("written once, stable on rerun, a structural diff on change, -u updates, obsolete ones reported", async () => {
    const snapshots = mkdtempSync(join(tmpdir(), "tooltrace-snapshots-"));
    const file = join(snapshots, "flights.trace-spec.ts.snap");
    const first = await run(snapshots, {});
    expect(first.output).toContain("2 written");
    expect(first.code).toBe(0);
    const written = readFileSync(file, "utf8");
    expect(written).toContain("exports[`books the cheapest flight 1`]");
    expect(written).toContain("exports[`a second test with its own snapshot > no flights 1`]");
    expect(written).toContain('"tool": "book_flight"');
    expect(written).not.toMatch(/"(seq|startedAt|durationMs|usage|turnIndex)":/);

    const again = await run(snapshots, { CI: "1" });
    expect(again.code).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(written);

    const changed = await run(snapshots, { CI: "1", FIXTURE_CHANGE: "prices" });
    expect(changed.code).toBe(1);
    expect(changed.output).toContain("Structural diff (stored → this run; update with -u when the change is intended):");
    expect(changed.output).toContain('~ call 2 search_flights: /turns/0/calls/1/output/0/id: "FL123" → "FL9"');
    expect(changed.output).toContain('~ call 4 book_flight: /turns/0/calls/3/input/flight_id: "FL123" → "FL9"');

    const failing = await run(snapshots, { CI: "1", FIXTURE_CHANGE: "email" });
    expect(failing.output).toContain('~ call 4 book_flight: /turns/0/calls/3/status: added "failed"');
    expect(failing.output).toContain('/turns/0/calls/3/error: added "sold out"');

    const updated = await run(snapshots, { FIXTURE_CHANGE: "prices" }, "-u");
    expect(updated.code).toBe(0);
    expect(updated.output).toContain("1 updated");
    expect(readFileSync(file, "utf8")).toContain('"flight_id": "FL9"');
    expect((await run(snapshots, { CI: "1", FIXTURE_CHANGE: "prices" })).code).toBe(0);

    const obsolete = await run(snapshots, { CI: "1", FIXTURE_CHANGE: "obsolete" });
    expect(obsolete.output).toMatch(/1 obsolete/);
  });

  test("inline: the runner writes the snapshot into the test file, and the rerun passes", async () => {
    const runs = join(project, "runs");
    mkdirSync(runs, { recursive: true });
    const spec = join(mkdtempSync(join(runs, "inline-")), "inline.trace-spec.ts");
    writeFileSync(
      spec,
      [
        'import { expect, test } from "vitest";',
        'import { createSession } from "tooltrace";',
        'import { flightAgent, flightTools } from "../../../flight-agent.js";',
        'test("inline", async () => {',
        "  const { tools } = flightTools();",
        '  const turn = await createSession({ agent: flightAgent(tools), tools, stubs: [{ id: "none", tool: "search_flights", outcome: { response: [] } }] }).send("Any?");',
        "  expect(turn).toMatchInlineTraceSnapshot();",
        "});",
        "",
      ].join("\n"),
    );
    try {
      const spec_ = spec.slice(project.length + 1);
      const first = await run("/nonexistent", { FIXTURE_SPEC: spec_ });
      if (majorOf("vitest") < 4) {
        // Vitest 3.2 writes inline snapshots only for its own matchers: refused, saying what to do.
        expect(first.output).toContain("toMatchInlineTraceSnapshot needs Vitest 4.1 or later");
        return;
      }
      expect(first.code).toBe(0);
      const source = readFileSync(spec, "utf8");
      expect(source).toContain("toMatchInlineTraceSnapshot(`");
      expect(source).toContain('"tool": "search_flights"');
      expect((await run("/nonexistent", { FIXTURE_SPEC: spec_, CI: "1" })).code).toBe(0);
    } finally {
      rmSync(join(spec, ".."), { recursive: true, force: true });
    }
  });

  test("under Jest: written, stable on rerun, a structural diff on change; inline snapshots too", async () => {
    const runs = join(project, "runs");
    mkdirSync(runs, { recursive: true });
    const folder = mkdtempSync(join(runs, "jest-"));
    cpSync(join(import.meta.dirname, "../fixtures/jest-snapshot-project/trace.jest-spec.mjs"), join(folder, "trace.jest-spec.mjs"));
    const jest = (env: Record<string, string>) => {
      const { CI: _ci, GITHUB_ACTIONS: _gh, ...rest } = process.env;
      return promisify(execFile)(
        process.execPath,
        [
          "--experimental-vm-modules",
          "--no-warnings",
          packageFile("jest", "bin", "jest.js"),
          "--config",
          join(import.meta.dirname, "../fixtures/jest-snapshot-project/jest.config.mjs"),
        ],
        { env: { ...rest, FIXTURE_ROOT: folder, NO_COLOR: "1", FORCE_COLOR: "0", ...env } },
      ).then(
        (ok) => ({ code: 0, output: ok.stdout + ok.stderr }),
        (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: error.stdout + error.stderr }),
      );
    };
    try {
      const first = await jest({});
      expect(first.output).toContain("2 snapshots written");
      expect(readFileSync(join(folder, "trace.jest-spec.mjs"), "utf8")).toContain("toMatchInlineTraceSnapshot(`");
      expect(readFileSync(join(folder, "__snapshots__", "trace.jest-spec.mjs.snap"), "utf8")).toContain('"answeredBy": "stub order #1"');
      const again = await jest({ CI: "1" });
      expect(again.code).toBe(0);
      expect(again.output).toContain("2 passed");
      const changed = await jest({ CI: "1", FIXTURE_CHANGE: "status" });
      expect(changed.code).toBe(1);
      expect(changed.output).toContain('~ call 1 lookup: /turns/0/calls/0/output/status: "delivered" → "lost"');
      expect(changed.output).toContain('~ /turns/0/text: "Order A17 is delivered." → "Order A17 is lost."');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test("the normal form is the same for 100 reruns of the same eval", async () => {
    const texts = new Set<string>();
    for (let i = 0; i < 100; i++) {
      const { tools } = flightTools();
      const session = createSession({
        agent: flightAgent(tools),
        tools,
        stubs: [{ id: "s", tool: "search_flights", outcome: { response: [{ id: "FL1", price: 1 }] } }],
      });
      await session.send("Book the cheapest flight to Paris.");
      texts.add(JSON.stringify(traceSnapshot(session.turns)));
    }
    expect(texts.size).toBe(1);
  });
});
