import { defineConfig } from "vitest/config";
import { tooltrace } from "tooltrace/vitest";

// `tooltrace` is the built package, copied into node_modules by the test that runs this project.
export default defineConfig({
  plugins: [tooltrace()],
  test: { root: import.meta.dirname, include: ["*.agent-spec.ts"], maxConcurrency: 50 },
});
