import { defineConfig } from "vitest/config";
export default defineConfig({ test: { include: ["lc.test.ts"] } });
