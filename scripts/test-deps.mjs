// Installs what tooltrace's own tests, examples and benchmarks use beyond the build (test/deps/package.json: the
// CLI agents, the agent frameworks, the browser driver, Jest, the linter) and links each into the root's
// node_modules, where the tests, examples and fixture projects resolve them. Run by `npm test` and the bench
// scripts, so `npm install` at the root (and a git install of tooltrace, which builds it) needs only what the
// build needs. Installed again only when test/deps/package-lock.json changed; linked on every run (an `npm install`
// at the root prunes links it did not make).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const folder = join(root, "test", "deps");
const modules = join(folder, "node_modules");
const stamp = join(modules, ".tooltrace-installed");
const lockfile = join(folder, "package-lock.json");
const hash = createHash("sha256")
  .update(readFileSync(existsSync(lockfile) ? lockfile : join(folder, "package.json")))
  .digest("hex");
if (!existsSync(stamp) || readFileSync(stamp, "utf8") !== hash) {
  console.log("[tooltrace] installing test/deps/package.json (the tests' own packages)");
  // `install`, not `ci`: npm records the CLI agents' platform packages for this platform only, and `ci` then
  // calls the lockfile out of sync. Engine warnings are the OpenTelemetry SDK's on Node 20, where tooltrace
  // refuses `otel` (and its tests check that).
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: folder,
    stdio: "inherit",
  });
  writeFileSync(stamp, hash);
}

const target = join(root, "node_modules");
mkdirSync(join(target, ".bin"), { recursive: true });
let linked = 0;
/** Links `name` from test/node_modules into the root's, when the root has no package of that name. */
const link = (from, to) => {
  if (existsSync(to)) return;
  // A link whose package is gone (its checkout was moved or removed) is made again.
  if (isLink(to)) unlinkSync(to);
  symlinkSync(from, to);
  linked += 1;
};
for (const entry of readdirSync(modules)) {
  if (entry.startsWith(".")) continue;
  if (entry.startsWith("@")) {
    mkdirSync(join(target, entry), { recursive: true });
    for (const scoped of readdirSync(join(modules, entry))) link(join(modules, entry, scoped), join(target, entry, scoped));
  } else link(join(modules, entry), join(target, entry));
}
for (const bin of existsSync(join(modules, ".bin")) ? readdirSync(join(modules, ".bin")) : [])
  link(join(modules, ".bin", bin), join(target, ".bin", bin));
if (linked > 0) console.log(`[tooltrace] linked ${linked} of the tests' packages into node_modules`);

function isLink(path) {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
