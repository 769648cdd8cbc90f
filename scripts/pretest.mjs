// Run by `npm test` before the suite, after scripts/test-deps.mjs: the lint, the type-check, the build and the
// browser check do not depend on one another, so they run at once (on two cores, ~10 s sooner than in a row).
// Each one's output is printed whole when it ends; any failure fails `npm test` with its output.
import { spawn } from "node:child_process";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const bin = (name) => join(root, "node_modules", ".bin", name);
const steps = [
  ["biome check .", bin("biome"), ["check", "."]],
  // Incremental: a contributor's next run checks again only what changed since the last (CI starts without it).
  [
    "tsc -p tsconfig.test.json",
    process.execPath,
    [
      join(root, "node_modules", "typescript", "bin", "tsc"),
      "-p",
      "tsconfig.test.json",
      "--incremental",
      "--tsBuildInfoFile",
      join(root, "node_modules", ".cache", "tooltrace", "tsconfig.test.tsbuildinfo"),
    ],
  ],
  ["build", process.execPath, [join(root, "scripts", "build.mjs")]],
  ["chromium", process.execPath, [join(root, "scripts", "ensure-chromium.mjs")]],
];

function run([name, command, args]) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("error", (error) => resolve({ name, code: 1, output: `${output}${error.message}\n` }));
    child.on("close", (code) => resolve({ name, code: code ?? 1, output }));
  });
}

const results = await Promise.all(steps.map(run));
for (const { name, code, output } of results) {
  if (output.trim() !== "") process.stdout.write(`> ${name}\n${output}${output.endsWith("\n") ? "" : "\n"}`);
  if (code !== 0) console.error(`[tooltrace] ${name} failed (exit ${code})`);
}
process.exitCode = results.some((result) => result.code !== 0) ? 1 : 0;
