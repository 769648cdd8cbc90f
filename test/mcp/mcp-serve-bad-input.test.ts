// `npx tooltrace mcp serve` given a file it cannot read.
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, test } from "vitest";

const bin = join(import.meta.dirname, "../../dist/bin.js");

test("mcp serve on a missing file names the file it could not read and what to do", async () => {
  // Problem: it printed Node's bare "ENOENT: no such file or directory, open '…'", without tooltrace's prefix or a fix.
  const missing = join(mkdtempSync(join(tmpdir(), "tooltrace-mcp-missing-")), "tools.json");
  const result = await promisify(execFile)(process.execPath, [bin, "mcp", "serve", missing]).then(
    (done) => ({ code: 0, ...done }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/^\[tooltrace\] /);
  expect(result.stderr).toContain(missing);
  expect(result.stderr).toMatch(/\n {2}Fix: /);
});
