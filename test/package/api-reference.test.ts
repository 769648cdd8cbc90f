import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import { packageFile } from "../fixtures/versions.js";

const root = join(import.meta.dirname, "../..");

// `npm run docs` in CI: the API reference from the TSDoc of every entry point, with no public type left out. A
// property of the sources, so the compatibility runs (copies without typedoc.json or .git) leave it out.
test.skipIf(!existsSync(join(root, ".git")))(
  "TypeDoc builds the API reference with no warning: every type an entry point's API names is documented",
  async () => {
    const out = mkdtempSync(join(tmpdir(), "tooltrace-api-"));
    const result = await promisify(execFile)(
      process.execPath,
      [packageFile("typedoc", "bin", "typedoc"), "--treatWarningsAsErrors", "--out", out],
      { cwd: root },
    ).catch((error: { stdout: string; stderr: string }) => error);
    const output = `${result.stdout}${result.stderr}`;
    // With --treatWarningsAsErrors a warning fails the run; a clean run prints only where the HTML went.
    expect(output).not.toMatch(/\[(warning|error)\]/);
    expect(output).toContain("html generated at");
    const modules = readdirSync(join(out, "modules"));
    for (const entry of ["tooltrace.html", "tooltrace_vitest.html", "tooltrace_matchers.html", "tooltrace_msw.html", "tooltrace_cli.html"])
      expect(modules).toContain(entry);
    const session = readFileSync(join(out, "functions", "tooltrace.createSession.html"), "utf8");
    expect(session).toContain("Creates a session over an agent");
  },
  120_000,
);
