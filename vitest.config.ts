import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { configDefaults, defineConfig } from "vitest/config";
import { tooltrace } from "./src/vitest/index.js";
import { tooltraceAliases } from "./vitest.aliases.js";

/**
 * The test files that start a browser, a CLI agent or a child project (a Vitest run, an install, a packed
 * tarball): each runs in a fresh worker, as a user's test file does. The others share their workers (Vitest's
 * `isolate: false`), which halves their CPU: a fresh worker loads the SDKs and tooltrace again for every file.
 * That also keeps tooltrace honest under `--no-isolate`, which users set for the same reason.
 */
const SLOW = /chromium|packageFile\("vitest"|vitest\.mjs|projectInstalled|runWithReport|"npm"|claudeCode\(|codex\(|opencode\(/;
/**
 * Files that need `node:http` as Node leaves it: keep-alive sockets reused, which no file after a strict
 * session in the same worker has (tooltrace's catcher stays for the worker; docs/http-mocks.md).
 */
const OWN_HTTP = ["test/server/attacks/keepalive-stream.test.ts"];
const CHILD_FILES = testFiles("test").filter(
  (file) => file.startsWith("test/cli/") || OWN_HTTP.includes(file) || SLOW.test(readFileSync(join(import.meta.dirname, file), "utf8")),
);

/**
 * The suite's test files under `folder`, without descending into the compatibility projects' installs and
 * copies (test/compat: some 150,000 files once `npm run test:matrix` ran, 1.5 s a walk, and Vitest loads this
 * config three times), the tests' packages (test/deps) or any node_modules.
 */
function testFiles(folder: string): string[] {
  return readdirSync(join(import.meta.dirname, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return ["test/compat", "test/deps"].includes(path) || entry.name === "node_modules" ? [] : testFiles(path);
    return entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

export default defineConfig({
  plugins: [tooltrace()],
  resolve: { alias: tooltraceAliases },
  test: {
    // The generated benchmark suite is run by `npm run bench:suite`, and the compatibility projects' copies
    // of the suite by `npm run test:matrix`, not by `npm test`.
    // test/matrix drives the compatibility projects, which `npm run test:matrix` installs and runs.
    exclude: [...configDefaults.exclude, ".bench-out/**", "test/compat/**", "test/matrix/**"],
    typecheck: { enabled: false },
    // Most files wait on child processes (Vitest runs, CLI agents, a browser): more files than cores at once.
    maxWorkers: Math.max(availableParallelism(), 3),
    // Beside two other files' child processes a test that starts one takes several times as long as alone: the
    // defaults (5 s, hooks 10 s) are for a quiet machine. A test that must fail fast says so itself.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The run's own temporary folder, removed when it ends; dist/ built from the sources as they are.
    globalSetup: ["./test/setup/temp-folder.ts", "./test/setup/built-package.ts"],
    // `npm run test:quick` runs the first project alone. A project's include and exclude add to the ones above.
    projects: [
      {
        extends: true,
        test: { name: "in-process", include: ["test/**/*.test.ts"], exclude: CHILD_FILES, isolate: false },
      },
      { extends: true, test: { name: "children", include: [...CHILD_FILES, "examples/**/*.eval.ts"] } },
    ],
  },
});
