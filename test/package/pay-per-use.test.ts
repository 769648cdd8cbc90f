import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect, test } from "vitest";

const run = promisify(execFile);

/**
 * Every test file imports `tooltrace` in a fresh process (Vitest's forks): what its module graph loads at the
 * top, every file pays. A package is loaded when a feature is used (yaml for a YAML file, ajv for a schema).
 */
test("importing tooltrace loads none of its dependencies, nor node:http or node:crypto: they load with the feature that needs them", async () => {
  // Each module the import resolves, ES modules through a resolve hook and CommonJS through require's cache.
  const hook = `export async function resolve(specifier, context, next) {
    const resolved = await next(specifier, context);
    if (resolved.url.includes("/node_modules/") || resolved.url.includes("/dist/"))
      (await import("node:fs")).appendFileSync(process.env.LOADED_LOG, resolved.url + "\\n");
    return resolved;
  }`;
  const log = `${process.env.TMPDIR ?? "/tmp"}/tooltrace-loaded-${process.pid}.log`;
  const script = `
    import { register, createRequire } from "node:module";
    import { existsSync, readFileSync, rmSync } from "node:fs";
    register("data:text/javascript," + encodeURIComponent(${JSON.stringify(hook)}));
    const core = await import("tooltrace");
    const own = [...new Set(readFileSync(process.env.LOADED_LOG, "utf8").split("\\n"))].filter((url) => url.includes("/dist/") && !url.includes("/node_modules/"));
    core.createSession({ agent: async () => "ok", stubs: [{ id: "t", tool: "t", outcome: { response: 1 } }], tools: { t: async () => 0 } }).close();
    const cjs = Object.keys(createRequire(import.meta.url).cache).filter((path) => path.includes("/node_modules/"));
    const esm = (existsSync(process.env.LOADED_LOG) ? readFileSync(process.env.LOADED_LOG, "utf8") : "")
      .split("\\n")
      .filter((url) => url.includes("/node_modules/"));
    rmSync(process.env.LOADED_LOG, { force: true });
    const builtins = process.moduleLoadList.filter((name) => /^NativeModule (http|https|http2|crypto)$/.test(name));
    console.log(JSON.stringify({ loaded: [...cjs, ...esm], builtins, own }));`;
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { env: { ...process.env, LOADED_LOG: log } });
  const { loaded, builtins, own } = JSON.parse(stdout) as { loaded: string[]; builtins: string[]; own: string[] };
  // A few files of its own (33 before: a script, tsx and the CLI paid for each): the entry and its chunks.
  expect(own.length).toBeGreaterThan(0);
  expect(own.length).toBeLessThanOrEqual(5);
  const packages = new Set(
    loaded.map((path) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1]).filter((name) => name !== "tooltrace"),
  );
  expect([...packages]).toEqual([]);
  // Node's own modules a feature needs load with it too: node:http with an MCP server, node:crypto with a cassette.
  expect(builtins).toEqual([]);
});
