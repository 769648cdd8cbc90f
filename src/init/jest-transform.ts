import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { jestConfigFile } from "./jest-config.js";

/**
 * What runs the first eval's TypeScript under Jest, if anything: ts-jest (in CommonJS, or in Jest's ESM mode),
 * babel-jest with Babel's TypeScript preset (in CommonJS), or nothing, and the eval is JavaScript.
 */
export type JestTransform =
  | { readonly kind: "js"; readonly why?: string }
  | {
      readonly kind: "ts-jest" | "babel-jest";
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
 * then names it); without ts-jest, babel-jest (Jest's default) when a Babel config has `@babel/preset-typescript`.
 */
export function jestTransform(folder: string, jestKey: boolean, dependencies: readonly string[]): JestTransform {
  const file = jestConfigFile(folder, jestKey);
  if (!dependencies.includes("ts-jest"))
    return dependencies.includes("@babel/preset-typescript") ? babelJest(folder, file) : { kind: "js" };
  if (file === undefined) {
    if (!existsSync(join(folder, "tsconfig.json"))) return { kind: "js", why: "ts-jest is installed but there is no tsconfig.json" };
    return typescriptEval(folder, packageField(folder, "type") === "module", "created", "");
  }
  const config = configText(folder, file, "jest");
  if (!config.includes("ts-jest")) return { kind: "js", why: `ts-jest is installed but ${file} does not name it` };
  return typescriptEval(folder, ESM.test(config), "project", config);
}

/**
 * The TypeScript eval: in ES modules under Node's resolution (`module` or `moduleResolution` `node16`/`nodenext` in
 * tsconfig.json, not followed through `extends`), tsc wants `./weather-agent.js`, which Jest finds only through
 * ts-jest's `moduleNameMapper` for `.js`.
 */
function typescriptEval(
  folder: string,
  esm: boolean,
  from: "project" | "created",
  config: string,
  kind: "ts-jest" | "babel-jest" = "ts-jest",
): JestTransform {
  const tsconfig = existsSync(join(folder, "tsconfig.json")) ? readFileSync(join(folder, "tsconfig.json"), "utf8") : "";
  const nodeEsm = esm && /"module(?:Resolution)?"\s*:\s*"node(?:16|18|20|next)"/i.test(tsconfig);
  const types = /"types"\s*:\s*\[([^\]]*)\]/.exec(tsconfig)?.[1];
  const typed = types === undefined || /"jest"/.test(types) ? {} : { types: "tsconfig.json's compilerOptions.types" };
  if (!nodeEsm) return { kind, esm, config: from, extension: "", ...typed };
  const mapped = /moduleNameMapper[\s\S]*\.js\$/.test(config);
  return { kind, esm, config: from, extension: ".js", ...typed, ...(mapped ? {} : { mapper: MAPPER }) };
}

/** ts-jest's mapper for ES module imports of `.js` that are `.ts` files. */
export const MAPPER = 'moduleNameMapper: { "^(\\\\.{1,2}/.*)\\\\.js$": "$1" }';

const BABEL_NAMES = ["js", "cjs", "mjs", "cts", "json"].map((ext) => `babel.config.${ext}`);
const BABELRC_NAMES = ["", ".json", ".js", ".cjs", ".mjs"].map((ext) => `.babelrc${ext}`);

/**
 * babel-jest's eval, in TypeScript when Babel strips its types (`@babel/preset-typescript`) and turns its
 * `import`s into `require`s (`@babel/preset-env`, or the CommonJS modules plugin): Jest runs a `.ts` file as
 * CommonJS unless its `extensionsToTreatAsEsm` says otherwise. Babel checks no types; the project's tsc does.
 */
function babelJest(folder: string, jestFile: string | undefined): JestTransform {
  const jest = jestFile === undefined ? "" : configText(folder, jestFile, "jest");
  if (/\btransform\b/.test(jest) && !jest.includes("babel-jest"))
    return { kind: "js", why: `${jestFile}'s \`transform\` does not give TypeScript to babel-jest` };
  if (/extensionsToTreatAsEsm/.test(jest)) return { kind: "js", why: `${jestFile} runs TypeScript as ES modules` };
  if (!existsSync(join(folder, "tsconfig.json"))) return { kind: "js", why: "there is no tsconfig.json to type-check a .ts eval" };
  const babelFile =
    [...BABEL_NAMES, ...BABELRC_NAMES].find((name) => existsSync(join(folder, name))) ??
    (packageField(folder, "babel") === undefined ? undefined : "package.json");
  const babel = babelFile === undefined ? "" : configText(folder, babelFile, "babel");
  if (!/preset-typescript|@babel\/typescript/.test(babel))
    return { kind: "js", why: "@babel/preset-typescript is installed but no Babel config names it" };
  if (!/preset-env|@babel\/env\b|transform-modules-commonjs/.test(babel))
    return { kind: "js", why: `${babelFile} does not turn \`import\` into \`require\` (@babel/preset-env) for Jest's CommonJS` };
  return typescriptEval(folder, false, jestFile === undefined ? "created" : "project", jest, "babel-jest");
}

/** A config's text: the file, or its key in package.json as JSON. */
function configText(folder: string, file: string, key: string): string {
  return file === "package.json" ? JSON.stringify(packageField(folder, key) ?? {}) : readFileSync(join(folder, file), "utf8");
}

/** package.json's `key` (`type`: `"module"` makes `.ts` files ES modules for ts-jest's ESM mode too). */
function packageField(folder: string, key: string): unknown {
  try {
    return (JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}
