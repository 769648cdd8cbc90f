import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import { packageFile } from "../fixtures/versions.js";

const project = join(import.meta.dirname, "../fixtures/jest-loads-project");
const dist = join(import.meta.dirname, "../../dist");

/** The files of tooltrace's build Jest compiles for one test file, in CommonJS or ESM mode, in load order. */
async function loadsFor(file: string, esm: boolean): Promise<string[]> {
  const log = join(mkdtempSync(join(tmpdir(), "tooltrace-jest-loads-")), "loads.log");
  await promisify(execFile)(
    process.execPath,
    [
      ...(esm ? ["--experimental-vm-modules", "--no-warnings"] : []),
      packageFile("jest", "bin", "jest.js"),
      "--config",
      join(project, "jest.config.cjs"),
      "--ci",
      "--runTestsByPath",
      join(project, file),
    ],
    { env: { ...process.env, CI: "1", LOADS_LOG: log, NODE_OPTIONS: `--require ${join(project, "record-loads.cjs")}` } },
  );
  return existsSync(log) ? [...new Set(readFileSync(log, "utf8").trim().split("\n"))].map((path) => relative(dist, path)) : [];
}

// Jest loads every module again in each test file: what a file does not use, it must not load. Before, the setup
// loaded the matchers and eight chunks, and in ESM mode the ES build, linked module by module.
for (const esm of [false, true]) {
  const ext = esm ? "mjs" : "cjs";
  const bridge = (name: string) => (esm ? [`${name}.js`] : []);
  test(`under Jest in ${esm ? "ESM" : "CommonJS"} mode, a test file loads only what it uses of tooltrace, in few files`, async () => {
    const [plain, session, matcher] = await Promise.all([
      loadsFor(`plain.jest-spec.${ext}`, esm),
      loadsFor(`session.jest-spec.${ext}`, esm),
      loadsFor(`matcher.jest-spec.${ext}`, esm),
    ]);
    // Jest resolves a setup file as CommonJS (its `require` condition) in ESM mode too.
    const setup = ["jest.cjs", "vitest-setup-core.cjs"];
    expect(plain).toEqual(setup);
    expect(session).toEqual([...setup, ...bridge("index"), "index.cjs"]);
    expect(matcher).toEqual([...setup, ...bridge("index"), "index.cjs", "matchers.cjs"]);
  }, 60_000);
}
