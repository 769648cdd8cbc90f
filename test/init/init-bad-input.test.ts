// `npx tooltrace init` on a project it cannot read as it expects: a package.json that is not JSON, and a
// Vitest config whose comment mentions `plugins: [`.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import ts from "typescript";
import { describe, expect, test } from "vitest";

const bin = join(import.meta.dirname, "../../dist/bin.js");

/** `tooltrace init` in a new folder holding `files`: its exit code and what it printed. */
async function initWith(files: Record<string, string>) {
  const folder = mkdtempSync(join(tmpdir(), "tooltrace-init-bad-"));
  for (const [path, text] of Object.entries(files)) writeFileSync(join(folder, path), text);
  const result = await promisify(execFile)(process.execPath, [bin, "init"], { cwd: folder }).then(
    (done) => ({ code: 0, ...done }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
  return { folder, code: result.code, printed: `${result.stdout}${result.stderr}` };
}

/** The `tooltrace()` calls in a config's code (comments and strings are not code). */
function pluginCalls(source: string): number {
  let calls = 0;
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "tooltrace") calls += 1;
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile("vitest.config.ts", source, ts.ScriptTarget.Latest, true));
  return calls;
}

describe("tooltrace init on input it cannot use", () => {
  test("a package.json that is not JSON: the message names package.json and what is wrong with it", async () => {
    // Problem: it printed JSON.parse's bare message ("Expected double-quoted property name in JSON at position 15").
    const { code, printed } = await initWith({ "package.json": '{ "name": "app", }\n' });
    expect(code).toBe(1);
    expect(printed).toMatch(/^\[tooltrace\] /);
    expect(printed).toContain("package.json");
    expect(printed).toMatch(/JSON/);
  });

  test("a config whose comment mentions `plugins: [` gets the plugin in its code, or init says it did not add it", async () => {
    // Problem: `tooltrace()` went into the comment, and init said it added the plugin (the hermetic run silently off).
    const config = [
      'import { defineConfig } from "vitest/config";',
      "",
      "// Add a plugin with plugins: [myPlugin()] below.",
      "export default defineConfig({",
      "  test: { testTimeout: 20_000 },",
      "});",
      "",
    ].join("\n");
    const { folder, printed } = await initWith({
      "package.json": JSON.stringify({ name: "app", type: "module", private: true }),
      "vitest.config.ts": config,
    });
    const written = readFileSync(join(folder, "vitest.config.ts"), "utf8");
    if (printed.includes("added the plugin to vitest.config.ts")) expect(pluginCalls(written), written).toBe(1);
    // Not added: it says so, and what to add.
    else expect(printed).toMatch(/vitest\.config\.ts.*`tooltrace\(\)`/);
  });
});
