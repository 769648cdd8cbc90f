import { defineConfig } from "vitest/config";

// `npm run test:matrix` runs these at the root after the compatibility projects: they drive those projects. One
// at a time: one packs the root (its `prepack` rewrites package.json for the pack) while another copies it.
export default defineConfig({ test: { include: ["test/matrix/**/*.test.ts"], fileParallelism: false } });
