// `tooltrace init` adding the plugin to a Vite or Vitest config of each shape: the edit as a formatter leaves
// code, and a config it leaves alone ends the report with what to add, never with "Run it".
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";

const bin = join(import.meta.dirname, "../../dist/bin.js");

/** `tooltrace init` in a new folder (no Vite installed: the edit is not loaded) with `file` holding `config`. */
async function initWithConfig(file: string, config: string) {
  const folder = mkdtempSync(join(tmpdir(), "tooltrace-init-edit-"));
  writeFileSync(join(folder, "package.json"), JSON.stringify({ name: "app", type: "module", private: true }));
  writeFileSync(join(folder, file), config);
  const { stdout } = await promisify(execFile)(process.execPath, [bin, "init"], { cwd: folder });
  return { said: stdout, edited: readFileSync(join(folder, file), "utf8") };
}

const HEAD =
  'import { defineConfig } from "vite";\nimport react from "@vitejs/plugin-react";\nimport { tooltrace } from "tooltrace/vitest";\n';
const BEFORE = HEAD.replace('import { tooltrace } from "tooltrace/vitest";\n', "");

describe("the plugin added to a config's plugins", () => {
  const shapes: Record<string, [string, string]> = {
    "a list on lines of their own": [
      "export default defineConfig({\n  plugins: [\n    react(),\n  ],\n});\n",
      "export default defineConfig({\n  plugins: [\n    tooltrace(),\n    react(),\n  ],\n});\n",
    ],
    "a list on one line with a trailing comma": [
      "export default defineConfig({ plugins: [react(), ] });\n",
      "export default defineConfig({ plugins: [tooltrace(), react()] });\n",
    ],
    "an empty list with a space": [
      "export default defineConfig({ plugins: [ ] });\n",
      "export default defineConfig({ plugins: [tooltrace()] });\n",
    ],
    "an empty list on lines of its own": [
      "export default defineConfig({\n  plugins: [\n  ],\n});\n",
      "export default defineConfig({\n  plugins: [tooltrace()],\n});\n",
    ],
    "a list holding a comment only": [
      "export default defineConfig({\n  plugins: [\n    // react() when the UI is back\n  ],\n});\n",
      "export default defineConfig({\n  plugins: [\n    // react() when the UI is back\n    tooltrace(),\n  ],\n});\n",
    ],
    "no plugins in an object on lines of its own": [
      "export default defineConfig({\n  server: { port: 3000 },\n});\n",
      "export default defineConfig({\n  plugins: [tooltrace()],\n  server: { port: 3000 },\n});\n",
    ],
    "an empty object": ["export default defineConfig({});\n", "export default defineConfig({ plugins: [tooltrace()] });\n"],
  };
  for (const [shape, [config, expected]] of Object.entries(shapes)) {
    test(`vite.config.ts with ${shape}`, async () => {
      // Problem: the edit left `plugins: [tooltrace(), ` before the list's own spacing (a stray comma and space).
      const { said, edited } = await initWithConfig("vite.config.ts", `${BEFORE}\n${config}`);
      expect(said).toContain("added the plugin to vite.config.ts");
      expect(edited).toBe(`${HEAD}\n${expected}`);
    });
  }
});

describe("a config init leaves as it is", () => {
  test("a plain object: the report ends with what to add, then the command, and never says Run it", async () => {
    // Problem: it explained what to add, then ended with "Run it: npx vitest run evals", which found no tests.
    const config = "export default {\n  test: { testTimeout: 20_000 },\n};\n";
    const { said, edited } = await initWithConfig("vitest.config.ts", config);
    expect(edited).toBe(config);
    const lines = said.trimEnd().split("\n");
    expect(said).not.toContain("Run it:");
    expect(lines.at(-2)).toBe(
      'Add to vitest.config.ts: `import { tooltrace } from "tooltrace/vitest";` at the top, and `tooltrace()` in its `plugins: [...]`',
    );
    expect(lines.at(-1)).toBe("Then run it: npx vitest run evals");
  });
});
