import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { expect, test } from "vitest";
// @ts-expect-error a plain script, without types
import { exitsBypassed, uphillImports } from "../../scripts/layers.mjs";

const root = join(import.meta.dirname, "..", "..");

function sources(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (path.endsWith(".ts") && !path.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

const files = [...sources(join(root, "src")), ...sources(join(root, "matchers"))];

test("every import runs downhill: a layer uses only those below it (13 imports ran uphill before)", () => {
  expect((uphillImports as (root: string) => string[])(root)).toEqual([]);
});

test("only src/exits writes a file or prints: every other module hands its bytes to an exit (22 files wrote or printed before)", () => {
  expect((exitsBypassed as (root: string) => string[])(root)).toEqual([]);
});

test("no source file is over 300 lines (session.ts was 603)", () => {
  const long = files
    .map((file) => [relative(root, file), readFileSync(file, "utf8").split("\n").length] as const)
    .filter(([, lines]) => lines > 300);
  expect(long).toEqual([]);
});

test("the message prefix is written in one place (it was typed by hand 46 times in 30 files)", () => {
  const typed = files.filter((file) => !file.endsWith(join("exits", "errors.ts")) && readFileSync(file, "utf8").includes("[tooltrace]"));
  expect(typed.map((file) => relative(root, file))).toEqual([]);
});
