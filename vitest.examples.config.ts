import { defineConfig } from "vitest/config";
import { tooltrace } from "./src/vitest/index.js";
import { tooltraceAliases } from "./vitest.aliases.js";

export default defineConfig({
  plugins: [tooltrace({ unusedRules: "error" })],
  resolve: { alias: tooltraceAliases },
  test: { include: ["examples/**/*.eval.ts"], reporters: ["default", "./examples/turns-reporter.ts"] },
});
