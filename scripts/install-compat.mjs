// Installs the projects under test/compat/ (older or newer majors than the root project pins), so the
// tests that run tooltrace under them find them installed. Run by `npm install` / `npm ci` (prepare).
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..", "test", "compat");
if (existsSync(root)) {
  for (const name of readdirSync(root)) {
    const dir = join(root, name);
    if (!existsSync(join(dir, "package.json"))) continue;
    const command = existsSync(join(dir, "package-lock.json")) ? "ci" : "install";
    console.log(`[tooltrace] installing test/compat/${name} (npm ${command})`);
    execFileSync("npm", [command, "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, stdio: "inherit" });
  }
}
