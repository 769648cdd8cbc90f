import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";
import { tooltrace } from "./src/vitest/index.js";
import { tooltraceAliases } from "./vitest.aliases.js";

export default defineConfig({
  plugins: [tooltrace()],
  resolve: { alias: tooltraceAliases },
  test: {
    include: ["test/**/*.test.ts", "examples/**/*.eval.ts"],
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
    // The run's own temporary folder, removed when it ends.
    globalSetup: ["./test/setup/temp-folder.ts"],
  },
});
