// Installs bench/deps (what `npm run bench:suite` compares tooltrace with: vitest-evals) when its lockfile
// changed, and links it into the generated suite's node_modules. Its peers (vitest, ai, zod) resolve to the
// root's packages: bench/deps/.npmrc sets legacy-peer-deps, so no second Vitest is installed beside it.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const deps = join(import.meta.dirname, "..", "bench", "deps");
const stamp = join(deps, "node_modules", ".tooltrace-installed");
const lock = readFileSync(join(deps, "package-lock.json"), "utf8");
if (!existsSync(stamp) || readFileSync(stamp, "utf8") !== lock) {
  console.log("[tooltrace] installing bench/deps/package.json (vitest-evals, for the suite benchmark)");
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: deps, stdio: "inherit" });
  writeFileSync(stamp, lock);
}
