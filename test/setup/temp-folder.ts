import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The suite's own temporary folder: every test (and every process it starts) writes its temporary files
 * under it, and the run removes it when it ends, so `npm test` leaves nothing in the OS temp folder.
 * Set TOOLTRACE_KEEP_TEMP=1 to keep it for a look. Each project of the config runs this setup: the first one
 * makes the folder and the others keep it (nested, the paths grew too long for Chromium's socket).
 */
export default function setup(): () => void {
  if (process.env.TOOLTRACE_TESTS_TEMP !== undefined) return () => undefined;
  const folder = mkdtempSync(join(tmpdir(), "tooltrace-tests-"));
  const before = { TMPDIR: process.env.TMPDIR, TEMP: process.env.TEMP, TMP: process.env.TMP, TOOLTRACE_TESTS_TEMP: undefined };
  process.env.TOOLTRACE_TESTS_TEMP = folder;
  process.env.TMPDIR = folder;
  process.env.TEMP = folder;
  process.env.TMP = folder;
  return () => {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    if (process.env.TOOLTRACE_KEEP_TEMP === "1") console.log(`the tests' temporary files: ${folder}`);
    else rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
  };
}
