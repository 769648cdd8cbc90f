import { defineConfig } from "vitest/config";

// `npm run test:matrix` runs these at the root after the compatibility projects: they drive those projects.
export default defineConfig({ test: { include: ["test/matrix/**/*.test.ts"] } });
