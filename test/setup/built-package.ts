import { execFileSync } from "node:child_process";
import { join } from "node:path";

/**
 * dist/ built from the sources as they are now, before any test runs: the fixture projects load the built
 * package as a user's project does, and some tests start its CLI. Does nothing when dist/ is already built from
 * these sources (`npm test`'s pretest built it); after an edit, a run of one file rebuilds it first.
 */
export default function setup(): void {
  try {
    execFileSync(process.execPath, [join(import.meta.dirname, "..", "..", "scripts", "build.mjs")], { stdio: "pipe" });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`npm run build failed, and the tests run the built package:\n${stdout}${stderr}`);
  }
}
