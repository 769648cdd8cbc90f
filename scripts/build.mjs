// `npm run build`: the package as users install it. One ESM file per entry point plus shared chunks
// (rolldown), with source maps into src/; declaration files from tsc, with declaration maps. Dependencies
// stay outside the bundle, so the heavy optional ones (ajv, re2js, regjsparser, msw) load only when used.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { join } from "node:path";
import { build } from "rolldown";
import { staticImports } from "./static-imports.mjs";

const root = join(import.meta.dirname, "..");
/** Each entry point's source, by its file in dist/ (package.json's `exports` point at these). */
export const ENTRIES = {
  index: "src/index.ts",
  vitest: "src/vitest/index.ts",
  "vitest-setup": "src/vitest/setup.ts",
  "vitest-llm-setup": "src/vitest/llm-setup.ts",
  "vitest-yaml-evals": "src/vitest/yaml-evals.ts",
  matchers: "matchers/index.ts",
  jest: "src/jest/setup.ts",
  "jest-yaml": "src/jest/yaml-transform.ts",
  "jest-yaml-evals": "src/jest/yaml-evals.ts",
  "ai-sdk": "src/agents/ai-sdk.ts",
  msw: "src/entries/msw.ts",
  wire: "src/entries/wire.ts",
  "agents-sdk": "src/agents/openai-agents.ts",
  cli: "src/cli/index.ts",
  server: "src/entries/server.ts",
  reporter: "src/entries/reporter.ts",
  "json-reporter": "src/entries/json-reporter.ts",
  "jest-reporter": "src/entries/jest-reporter.ts",
  bin: "src/entries/bin.ts",
  // What a test file's agent gets for its library under the plugin: the library, with inline tools caught.
  "inline-ai": "src/inline/ai.ts",
  "inline-langchain": "src/inline/langchain.ts",
  "inline-langchain-tools": "src/inline/langchain-tools.ts",
  "inline-langgraph-prebuilt": "src/inline/langgraph-prebuilt.ts",
  "inline-agents-sdk": "src/inline/agents-sdk.ts",
};

/** The entries a CommonJS test setup may `require` (Vitest's are ES modules only). */
export const CJS_ENTRIES = [
  "index",
  "matchers",
  "jest",
  "jest-yaml",
  "jest-yaml-evals",
  "jest-reporter",
  "ai-sdk",
  "msw",
  "wire",
  "agents-sdk",
  "cli",
  "server",
  "vitest-setup-core",
  "vitest-llm-setup-core",
];
/**
 * The entries whose ES module (`dist/<name>.js`) is a bridge that `require`s their CommonJS build: a test file's
 * `import "tooltrace"` then shares the core the setup file loaded (Vitest's and Jest's setups are CommonJS), one
 * copy of tooltrace per test file. Vite's module runner loads CommonJS in about half the time of an ES module
 * graph, and Jest's ESM mode links every ES module again in each test file, where its CommonJS loader compiles
 * from V8's cache (Node 22 on). Not those whose CommonJS build would `require` a package the test imports as an
 * ES module (`ai`, `msw`, `@openai/agents`): two copies of it.
 */
export const CJS_BRIDGES = ["index", "matchers", "wire", "cli", "server", "jest"];
/** Built as CommonJS only: the Vitest setup file's core, which `vitest-setup.js` loads with `require` (faster than an ES module graph). */
const CJS_ONLY = { "vitest-setup-core": "src/vitest/setup-core.ts", "vitest-llm-setup-core": "src/vitest/llm-setup-core.ts" };

/** What the Vitest setup file needs: one chunk, which every test file loads. */
const SETUP_MODULES =
  /src[/](base[/]|exits[/]|edges[/](?!dispatch-handler)|lifecycle|pipeline[/](turn-context|edge-policy|hosts)|catchers[/]provider-hosts|wire[/]base-urls|trace[/](format-version|cost|prices|provider-waits)|secrets[/]|cassettes[/](cassette-mode|writers|file-lock|stale|rerecord)|vitest[/](setup-core|test-scopes|plugin-options-in-worker|late-call-reporter|live-trials-artifacts))/;

const indexModules = staticImports(join(root, "src", "index.ts"));
const setupImports = new Set([...indexModules].filter((id) => SETUP_MODULES.test(id)).flatMap((id) => [...staticImports(id)]));
const MAIN_MODULES = new Set([...indexModules].filter((id) => !setupImports.has(id) && !SETUP_MODULES.test(id)));
/** What the Jest setup loads beyond the setup chunk: kept out of the CommonJS main chunk, which it does not need. */
const JEST_SETUP_MODULES = staticImports(join(root, "src", "jest", "setup.ts"));

const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const packages = [
  ...Object.keys(manifest.dependencies ?? {}),
  ...Object.keys(manifest.peerDependencies ?? {}),
  ...Object.keys(manifest.devDependencies ?? {}),
  // The agent libraries the inline entries wrap: the user's own copy, never bundled.
  "langchain",
  "@langchain/core",
  "@langchain/langgraph",
];
const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
const external = (id) => builtins.has(id) || id.startsWith("node:") || packages.some((name) => id === name || id.startsWith(`${name}/`));

// What the build is made of: when dist/ was built from exactly these, building again would write the same files
// (a git install runs `prepare`, then `prepack` for its pack; `npm install` builds, then `npm test` would again).
const require = createRequire(import.meta.url);
const inputs = createHash("sha256");
for (const file of filesUnder([
  "src",
  "matchers",
  "scripts/build.mjs",
  "scripts/copy-declarations.mjs",
  "scripts/static-imports.mjs",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
]))
  inputs
    .update(`${file}\0`)
    .update(readFileSync(join(root, file)))
    .update("\0");
for (const tool of ["rolldown", "typescript"]) inputs.update(`${tool}@${require(`${tool}/package.json`).version}\0`);
const digest = inputs.digest("hex");
const stamp = join(root, "node_modules", ".cache", "tooltrace-build", "inputs");
const built = [...Object.keys(ENTRIES).map((name) => `${name}.js`), ...CJS_ENTRIES.map((name) => `${name}.cjs`)];
if (
  process.env.TOOLTRACE_REBUILD !== "1" &&
  existsSync(stamp) &&
  readFileSync(stamp, "utf8") === digest &&
  built.every((file) => existsSync(join(root, "dist", file)))
) {
  // On stderr, and not under npm's pack: `npm pack` prints the tarball's name on stdout, which scripts read.
  if (process.env.npm_lifecycle_event !== "prepack") {
    console.error("[tooltrace] dist/ is already built from these sources (TOOLTRACE_REBUILD=1 builds it again)");
  }
  process.exit(0);
}
rmSync(stamp, { force: true });
rmSync(join(root, "dist"), { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", join(root, "tsconfig.json")], {
  stdio: "inherit",
});
execFileSync(process.execPath, [join(root, "scripts", "copy-declarations.mjs")], { stdio: "inherit" });
await build({
  cwd: root,
  input: Object.fromEntries(
    Object.entries(ENTRIES)
      .filter(([name]) => !CJS_BRIDGES.includes(name))
      .map(([name, source]) => [name, join(root, source)]),
  ),
  platform: "node",
  // Entries export exactly their modules' names; the shared chunks may carry more, which no entry re-exports.
  preserveEntrySignatures: "allow-extension",
  external,
  treeshake: true,
  output: {
    dir: join(root, "dist"),
    format: "esm",
    sourcemap: true,
    // The declarations carry the documentation; `@vite-ignore` and other annotations must stay.
    comments: { legal: true, annotation: true, jsdoc: false },
    entryFileNames: "[name].js",
    chunkFileNames: "chunks/[name]-[hash].js",
    // Shared chunks by what loads them: the setup file's (every test file loads it, so it is one file), what
    // needs msw (so `tooltrace` alone never loads msw), the loopback server, and the rest.
    codeSplitting: {
      includeDependenciesRecursively: false,
      groups: [
        {
          name: "setup",
          test: SETUP_MODULES,
          priority: 3,
        },
        { name: "msw", test: /src[/]catchers[/](msw-|network-guard)/, priority: 2 },
        // A socket server, for the wire without MSW and the CLI adapters: `tooltrace` alone never loads node:http.
        { name: "loopback", test: /src[\\/]catchers[\\/]loopback-server/, priority: 2 },
        // The rest of what `import("tooltrace")` loads, in one chunk (a script, tsx and the CLI loaded 33 files),
        // but what the setup's modules import (in a chunk of their own, or the two would import each other).
        { name: "main", test: (id) => MAIN_MODULES.has(id), priority: 1 },
      ],
    },
  },
});

// CommonJS for what a CommonJS test setup loads (Jest without its ESM mode: `setupFilesAfterEnv`, test files
// compiled to CommonJS `require("tooltrace")`): every entry but Vitest's. Process-wide
// state lives under `Symbol.for` keys, so this copy and the ES modules share it.
const cjs = await build({
  cwd: root,
  input: Object.fromEntries(CJS_ENTRIES.map((name) => [name, join(root, ENTRIES[name] ?? CJS_ONLY[name])])),
  platform: "node",
  preserveEntrySignatures: "allow-extension",
  external,
  treeshake: true,
  output: {
    dir: join(root, "dist"),
    format: "cjs",
    // An entry's default export beside its named ones (a reporter's class): `exports.default`, as Jest reads it.
    exports: "named",
    sourcemap: true,
    comments: { legal: true, annotation: true, jsdoc: false },
    entryFileNames: "[name].cjs",
    chunkFileNames: "cjs/[name]-[hash].cjs",
    // The setup file's core in one chunk: every test file loads it. Then what `require("tooltrace")` loads, in
    // one chunk but what the Jest setup needs: under Jest, each file a test file loads costs it a resolution, a
    // read and a compilation of its own, in every test file.
    codeSplitting: {
      includeDependenciesRecursively: false,
      groups: [
        // With the few small modules the Jest setup adds (not its entry, whose code runs when it loads).
        { name: "setup", test: (id) => SETUP_MODULES.test(id) || (JEST_SETUP_MODULES.has(id) && !/src[/]jest[/]/.test(id)), priority: 3 },
        { name: "main", test: (id) => MAIN_MODULES.has(id) && !JEST_SETUP_MODULES.has(id), priority: 1 },
      ],
    },
  },
});

writeBridges(cjs.output);

mkdirSync(join(stamp, ".."), { recursive: true });
writeFileSync(stamp, digest);

/**
 * Each bridge: an ES module exporting the CommonJS entry's names, read off it with `require` (an `import` of the
 * .cjs would have Node scan it for its names, which costs what the bridge saves).
 */
function writeBridges(output) {
  for (const name of CJS_BRIDGES) {
    const entry = output.find((chunk) => chunk.type === "chunk" && chunk.isEntry && chunk.name === name);
    if (entry === undefined) throw new Error(`no CommonJS entry "${name}" to bridge`);
    const names = entry.exports.filter((exported) => exported !== "default");
    const lines = [
      "// This entry's CommonJS build, shared with the setup file's: see CJS_BRIDGES in scripts/build.mjs.",
      'import { createRequire } from "node:module";',
      `${names.length > 0 ? "const entry = " : ""}createRequire(import.meta.url)("./${name}.cjs");`,
      ...(names.length > 0 ? [`export const { ${names.join(", ")} } = entry;`] : []),
      ...(entry.exports.includes("default") ? ["export default entry.default;"] : []),
    ];
    writeFileSync(join(root, "dist", `${name}.js`), `${lines.join("\n")}\n`);
  }
}

/** The files under `paths` (folders walked, files as they are), relative to the root, in a stable order. */
function filesUnder(paths) {
  return paths.flatMap((path) => {
    const full = join(root, path);
    if (!existsSync(full)) return [];
    if (!statSync(full).isDirectory()) return [path];
    return readdirSync(full, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath ?? entry.path, entry.name).slice(root.length + 1))
      .sort();
  });
}
