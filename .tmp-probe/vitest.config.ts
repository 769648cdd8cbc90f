import { defineConfig } from "vitest/config";
import { tooltrace } from "../src/vitest/index.js";
export default defineConfig({ plugins: [tooltrace()], test: { include: ["msg.test.ts"] } });
