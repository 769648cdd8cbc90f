import { defineConfig } from "vitest/config";
import { tooltrace } from "./src/vitest/index.js";
import { tooltraceAliases } from "./vitest.aliases.js";

export default defineConfig({
  plugins: [tooltrace()],
  resolve: { alias: tooltraceAliases },
  test: {
    include: ["test/**/*.test.ts", "examples/**/*.eval.ts"],
    typecheck: { enabled: false },
  },
});
