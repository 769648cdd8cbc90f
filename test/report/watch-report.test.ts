import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { type ReportData, readReport } from "tooltrace/reporter";
import { projectInstalled, projectWithPackage } from "../fixtures/installed-project.js";
import { packageFile } from "../fixtures/versions.js";

function writeEval(project: string, name: string, expected: number): void {
  writeFileSync(
    join(project, `${name}.eval.ts`),
    `import { expect, test } from "vitest";\n\ntest("${name} <script>alert(1)</script>", () => {\n  expect(1).toBe(${expected});\n});\n`,
  );
}

/** Resolves once `output()` holds `count` matches of `pattern` (Vitest's watcher is listening), or rejects after `ms`. */
async function printed(output: () => string, pattern: RegExp, count: number, ms = 30_000): Promise<void> {
  const started = Date.now();
  while ((output().match(new RegExp(pattern, "g")) ?? []).length < count) {
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${count} × ${pattern}:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The report once `ready` holds for it, or a rejection after `ms`. */
async function reportWhen(folder: string, ready: (data: ReportData) => boolean, output: () => string, ms = 30_000): Promise<ReportData> {
  const started = Date.now();
  for (;;) {
    if (existsSync(join(folder, "index.html"))) {
      const data = readReport(folder);
      if (ready(data)) return data;
    }
    if (Date.now() - started > ms) throw new Error(`timed out waiting for the report:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test.skipIf(!projectInstalled)(
  "watch mode: after a rerun the report holds the whole suite, the tests that did not rerun marked as earlier",
  async () => {
    const project = projectWithPackage("watch-report");
    writeFileSync(join(project, "vitest.config.ts"), `export default { test: { include: ["*.eval.ts"] } };\n`);
    writeEval(project, "kept", 1);
    writeEval(project, "edited", 1);
    const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: "0" };
    delete env.CI;
    delete env.GITHUB_ACTIONS;
    const reporters = ["--reporter=default", "--reporter=tooltrace/json-reporter", "--reporter=tooltrace/reporter"];
    const args = [packageFile("vitest", "vitest.mjs"), "--watch", ...reporters];
    const child = spawn(process.execPath, args, { cwd: project, env, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
    const folder = join(project, "tooltrace-report");
    try {
      const first = await reportWhen(
        folder,
        () => true,
        () => out,
      );
      expect(first.tests.map((t) => t.fullName).sort()).toEqual(["edited <script>alert(1)</script>", "kept <script>alert(1)</script>"]);
      const firstAt = first.history?.[0]?.at;
      await printed(() => out, /(Waiting|Watching) for file changes/, 1);

      writeEval(project, "edited", 2);
      const second = await reportWhen(
        folder,
        (data) => (data.history?.length ?? 0) >= 2,
        () => out,
      );
      const kept = second.tests.find((t) => t.file === "kept.eval.ts");
      const edited = second.tests.find((t) => t.file === "edited.eval.ts");
      expect(kept).toMatchObject({ state: "passed", fromRun: firstAt });
      expect(edited?.state).toBe("failed");
      expect(edited).not.toHaveProperty("fromRun");
      expect(second.history).toHaveLength(2);
      expect(second.history?.[1]).toMatchObject({ tests: 2, failed: 1 });
      expect(second.history?.[0]).toMatchObject({ tests: 2, failed: 0 });
      // The line is printed after the page is written: it may reach this process a moment later.
      await expect.poll(() => out, { timeout: 10_000 }).toContain("(2 tests, 1 failed)");
      // The JSON reporter's file holds the whole suite too (it held the rerun file alone).
      const turnsFile = join(project, "tooltrace-turns.json");
      const readTurns = () => JSON.parse(readFileSync(turnsFile, "utf8")) as ReportData;
      await expect.poll(() => readTurns().tests.some((t) => t.state === "failed")).toBe(true);
      const json = readTurns();
      expect(json.tests.map((t) => [t.file, t.state, t.fromRun])).toEqual(
        expect.arrayContaining([
          ["kept.eval.ts", "passed", firstAt],
          ["edited.eval.ts", "failed", undefined],
        ]),
      );
      // Hostile test names stay data: escaped in the page, never markup.
      const html = readFileSync(join(folder, "index.html"), "utf8");
      expect(html).not.toContain("<script>alert(1)");

      // A file deleted during the session drops out at the next report.
      await printed(() => out, /(Waiting|Watching) for file changes/, 2);
      rmSync(join(project, "kept.eval.ts"));
      writeEval(project, "edited", 1);
      const third = await reportWhen(
        folder,
        (data) => data.tests.some((t) => t.file === "edited.eval.ts" && t.state === "passed"),
        () => out,
      );
      expect(third.tests.map((t) => t.file)).toEqual(["edited.eval.ts"]);
      expect(third.tests[0]?.state).toBe("passed");
    } finally {
      child.kill("SIGKILL");
      rmSync(project, { recursive: true, force: true });
    }
  },
  90_000,
);
