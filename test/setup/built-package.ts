import { execFileSync } from "node:child_process";
import { join } from "node:path";

/**
 * dist/ built from the sources as they are now, before any test runs: the fixture projects load the built
 * package as a user's project does, and some tests start its CLI. Does nothing when dist/ is already built from
 * these sources (as after `npm install`); after an edit, `npm test` or a run of one file rebuilds it first.
 */
export default function setup(): void {
  // Once a run (Vitest runs a global setup for each project), and only for this checkout's dist/.
  const root = join(import.meta.dirname, "..", "..");
  if (process.env.TOOLTRACE_TESTS_BUILT === root) return;
  process.env.TOOLTRACE_TESTS_BUILT = root;
  try {
    execFileSync(process.execPath, [join(root, "scripts", "build.mjs")], { stdio: "pipe" });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`npm run build failed, and the tests run the built package:\n${stdout}${stderr}`);
  }
}
