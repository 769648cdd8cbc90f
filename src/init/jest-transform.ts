import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { jestConfigFile } from "./jest-config.js";

/**
 * What runs the first eval's TypeScript under Jest, if anything: ts-jest (in CommonJS, or in Jest's ESM mode), or
 * nothing, and the eval is JavaScript.
 */
export type JestTransform =
  | { readonly kind: "js"; readonly why?: string }
  | {
      readonly kind: "ts-jest";
      readonly esm: boolean;
      readonly config: "project" | "created";
      /** How the eval names the modules beside it: `.js` for Node's ES module resolution, none otherwise. */
      readonly extension: "" | ".js";
      /** What to add to the Jest config for Jest to find those modules, when it lacks it. */
      readonly mapper?: string;
      /** Where `"jest"` is missing: tsconfig.json's `types`, when it lists some and not Jest's. */
      readonly types?: string;
    };

// ts-jest's ESM presets (`ts-jest/presets/default-esm`, `js-with-ts-esm`, ...), `useESM: true` in its transform's
// options, and the helper that builds its ESM preset.
const ESM = /ts-jest\/presets\/[\w-]+-esm\b|["']?\buseESM["']?\s*:\s*true|\bcreateDefaultEsmPreset\b|\bcreateJsWithTsEsmPreset\b/;

/**
 * Which transform the project's Jest runs TypeScript with: ts-jest when its config names it (a `preset` or a
 * `transform`), or when there is no config yet and the project has ts-jest and a `tsconfig.json` (init's config
 * then names it). A babel-jest project gets a JavaScript eval: Babel's TypeScript preset strips types without
 * checking them, and whether its config also turns `import` into `require` is Babel's config to say, not Jest's.
 */
export function jestTransform(folder: string, jestKey: boolean, dependencies: readonly string[]): JestTransform {
  const file = jestConfigFile(folder, jestKey);
  if (!dependencies.includes("ts-jest")) return { kind: "js" };
  if (file === undefined) {
    if (!existsSync(join(folder, "tsconfig.json"))) return { kind: "js", why: "ts-jest is installed but there is no tsconfig.json" };
    return tsJest(folder, packageType(folder) === "module", "created", "");
  }
  const text = readFileSync(join(folder, file), "utf8");
  const config = file === "package.json" ? JSON.stringify((JSON.parse(text) as { jest?: unknown }).jest ?? {}) : text;
  if (!config.includes("ts-jest")) return { kind: "js", why: `ts-jest is installed but ${file} does not name it` };
  return tsJest(folder, ESM.test(config), "project", config);
}

/**
 * ts-jest's eval: in ES modules under Node's resolution (`module` or `moduleResolution` `node16`/`nodenext` in
 * tsconfig.json, not followed through `extends`), tsc wants `./weather-agent.js`, which Jest finds only through
 * ts-jest's `moduleNameMapper` for `.js`.
 */
function tsJest(folder: string, esm: boolean, from: "project" | "created", config: string): JestTransform {
  const tsconfig = existsSync(join(folder, "tsconfig.json")) ? readFileSync(join(folder, "tsconfig.json"), "utf8") : "";
  const nodeEsm = esm && /"module(?:Resolution)?"\s*:\s*"node(?:16|18|20|next)"/i.test(tsconfig);
  const types = /"types"\s*:\s*\[([^\]]*)\]/.exec(tsconfig)?.[1];
  const typed = types === undefined || /"jest"/.test(types) ? {} : { types: "tsconfig.json's compilerOptions.types" };
  if (!nodeEsm) return { kind: "ts-jest", esm, config: from, extension: "", ...typed };
  const mapped = /moduleNameMapper[\s\S]*\.js\$/.test(config);
  return { kind: "ts-jest", esm, config: from, extension: ".js", ...typed, ...(mapped ? {} : { mapper: MAPPER }) };
}

/** ts-jest's mapper for ES module imports of `.js` that are `.ts` files. */
export const MAPPER = 'moduleNameMapper: { "^(\\\\.{1,2}/.*)\\\\.js$": "$1" }';

/** package.json's `type`: `"module"` makes `.ts` files ES modules for ts-jest's ESM mode too. */
function packageType(folder: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { type?: string }).type;
  } catch {
    return undefined;
  }
}
