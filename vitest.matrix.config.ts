import { defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config.js";

// `npm run test:matrix` runs these at the root after the compatibility projects: they drive those projects.
export default mergeConfig(
  base,
  defineConfig({ test: { include: ["test/matrix/**/*.test.ts"], exclude: ["test/compat/**", "node_modules/**"] } }),
);
