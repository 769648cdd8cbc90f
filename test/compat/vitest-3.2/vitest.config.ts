import { defineConfig } from "vitest/config";
import { tooltrace } from "tooltrace/vitest";

// `tooltrace` is the built package, copied into node_modules by the test that runs this project.
export default defineConfig({
  // `llm: true` starts the HTTP catcher that strict sessions need.
  plugins: [tooltrace({ llm: true })],
  // `work/` holds npm run test:matrix's copy of the whole suite: not this fixture's tests.
  test: { root: import.meta.dirname, include: ["*.agent-spec.ts"], exclude: ["work/**", "node_modules/**"], maxConcurrency: 50 },
});
