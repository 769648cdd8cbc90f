// Which transform `init` finds a Jest project's TypeScript runs under, from its Jest config in each form.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { jestTransform } from "../../src/init/jest-transform.js";

const TS_JEST = ["jest", "ts-jest", "typescript"];

/** The transform found in a project of `files`, with `dependencies`. */
function found(files: Record<string, string>, dependencies = TS_JEST) {
  const folder = mkdtempSync(join(tmpdir(), "tooltrace-jest-transform-"));
  writeFileSync(join(folder, "package.json"), files["package.json"] ?? "{}");
  writeFileSync(join(folder, "tsconfig.json"), files["tsconfig.json"] ?? "{}");
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  return jestTransform(folder, files["package.json"]?.includes('"jest":') ?? false, dependencies);
}

test("ts-jest named by a preset, a transform, or ts-jest's own createDefaults; ESM by its presets and useESM", () => {
  expect(found({ "jest.config.ts": 'export default { preset: "ts-jest" };\n' })).toMatchObject({ kind: "ts-jest", esm: false });
  const defaults = 'const { createDefaults } = require("ts-jest");\nmodule.exports = { transform: { ...createDefaults().transform } };\n';
  expect(found({ "jest.config.js": defaults })).toMatchObject({ kind: "ts-jest", esm: false, config: "project" });
  const useEsm = 'export default { transform: { "^.+\\\\.tsx?$": ["ts-jest", { useESM: true }] } };\n';
  expect(found({ "jest.config.mjs": useEsm })).toMatchObject({ kind: "ts-jest", esm: true });
  const manifest = JSON.stringify({ jest: { preset: "ts-jest/presets/default-esm" } });
  expect(found({ "package.json": manifest })).toMatchObject({ kind: "ts-jest", esm: true });
});

test("no Jest config: ts-jest with a tsconfig.json (ESM in a module package); a config without ts-jest: JavaScript", () => {
  expect(found({})).toMatchObject({ kind: "ts-jest", esm: false, config: "created" });
  expect(found({ "package.json": '{ "type": "module" }' })).toMatchObject({ kind: "ts-jest", esm: true, config: "created" });
  expect(found({ "jest.config.js": "module.exports = {};\n" })).toEqual({
    kind: "js",
    why: "ts-jest is installed but jest.config.js does not name it",
  });
  expect(found({}, ["jest"])).toEqual({ kind: "js" });
});

test("ESM under nodenext: ./name.js imports, and the mapper when the config lacks it; tsconfig types without jest", () => {
  const tsconfig = '{ "compilerOptions": { "module": "nodenext", "types": ["node"] } }';
  const config = 'export default { preset: "ts-jest/presets/default-esm" };\n';
  expect(found({ "tsconfig.json": tsconfig, "jest.config.mjs": config })).toMatchObject({
    extension: ".js",
    mapper: expect.stringContaining("moduleNameMapper"),
    types: "tsconfig.json's compilerOptions.types",
  });
  const mapped = 'export default { preset: "ts-jest/presets/default-esm", moduleNameMapper: { "^(\\\\.{1,2}/.*)\\\\.js$": "$1" } };\n';
  expect(found({ "tsconfig.json": tsconfig, "jest.config.mjs": mapped })).not.toHaveProperty("mapper");
});

test("babel-jest: TypeScript when Babel's config has the TypeScript preset and turns imports into requires", () => {
  const babel = ["jest", "typescript", "@babel/preset-typescript", "@babel/preset-env"];
  const presets = '{ "presets": ["@babel/preset-env", "@babel/preset-typescript"] }';
  expect(found({ "babel.config.json": presets }, babel)).toMatchObject({ kind: "babel-jest", esm: false, extension: "" });
  expect(found({ "package.json": JSON.stringify({ babel: JSON.parse(presets) }) }, babel)).toMatchObject({ kind: "babel-jest" });
  expect(found({}, babel)).toEqual({ kind: "js", why: "@babel/preset-typescript is installed but no Babel config names it" });
  const other = 'module.exports = { transform: { "^.+\\\\.ts$": "esbuild-jest" } };\n';
  expect(found({ "babel.config.json": presets, "jest.config.js": other }, babel)).toEqual({
    kind: "js",
    why: "jest.config.js's `transform` does not give TypeScript to babel-jest",
  });
});
