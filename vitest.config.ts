import { configDefaults, defineConfig } from "vitest/config";
import { tooltrace } from "./src/vitest/index.js";
import { tooltraceAliases } from "./vitest.aliases.js";

export default defineConfig({
  plugins: [tooltrace()],
  resolve: { alias: tooltraceAliases },
  test: {
    include: ["test/**/*.test.ts", "examples/**/*.eval.ts"],
    // The generated benchmark suite is run by `npm run bench:suite`, not by `npm test`.
    exclude: [...configDefaults.exclude, ".bench-out/**"],
    typecheck: { enabled: false },
  },
});
