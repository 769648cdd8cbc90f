// Installs the projects under test/compat/ (older or newer majors than the root project pins), so the
// tests that run tooltrace under them find them installed: all of them, or the ones named as arguments.
// Run by `npm run test:matrix`. A project already installed from its current lockfile is left as it is.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..", "test", "compat");
const wanted = process.argv.slice(2);
for (const name of existsSync(root) ? readdirSync(root) : []) {
  const dir = join(root, name);
  if (!existsSync(join(dir, "package.json")) || (wanted.length > 0 && !wanted.includes(name))) continue;
  const lockfile = join(dir, "package-lock.json");
  const stamp = join(dir, "node_modules", ".tooltrace-installed");
  const hash = createHash("sha256")
    .update(readFileSync(existsSync(lockfile) ? lockfile : join(dir, "package.json")))
    .digest("hex");
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === hash) continue;
  const command = existsSync(lockfile) ? "ci" : "install";
  console.log(`[tooltrace] installing test/compat/${name} (npm ${command})`);
  execFileSync("npm", [command, "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, stdio: "inherit" });
  writeFileSync(stamp, hash);
}
