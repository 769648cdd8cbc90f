// `npm test`: the lint and the browser check, at once; then the suite (`vitest run`, with the arguments given
// to `npm test --`; its global setup builds dist/ when the sources changed), while the type-check runs beside
// it. On two cores the type-check's 20 s (from scratch, as in CI) had the machine to itself before the suite
// started; beside the suite it costs a share of the cores instead. Each step's output is printed whole when it
// ends (the type-check's after the suite's report); any failure fails `npm test` with its output.
import { spawn } from "node:child_process";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const bin = (name) => join(root, "node_modules", ".bin", name);
const before = [
  ["biome check .", bin("biome"), ["check", "."]],
  ["chromium", process.execPath, [join(root, "scripts", "ensure-chromium.mjs")]],
];
// Incremental: a contributor's next run checks again only what changed since the last (CI starts without it).
const typeCheck = [
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

function report({ name, code, output }) {
  if (output.trim() !== "") process.stdout.write(`> ${name}\n${output}${output.endsWith("\n") ? "" : "\n"}`);
  if (code !== 0) console.error(`[tooltrace] ${name} failed (exit ${code})`);
  return code === 0;
}

const typeChecked = run(typeCheck);
const ready = (await Promise.all(before.map(run))).map(report).every(Boolean);
let suite = 1;
if (ready) {
  const vitest = spawn(process.execPath, [join(root, "node_modules", "vitest", "vitest.mjs"), "run", ...process.argv.slice(2)], {
    cwd: root,
    stdio: "inherit",
  });
  suite = await new Promise((resolve) => vitest.on("close", (code) => resolve(code ?? 1)));
}
const typesOk = report(await typeChecked);
process.exitCode = ready && typesOk && suite === 0 ? 0 : 1;
