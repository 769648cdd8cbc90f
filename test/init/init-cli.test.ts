// `tooltrace init --help` and its kin: usage or the version, exit 0 and nothing written; an option init does not
// know is refused by name, exit 2 and nothing written.
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";

const bin = join(import.meta.dirname, "../../dist/bin.js");
const version = (JSON.parse(readFileSync(join(import.meta.dirname, "../../package.json"), "utf8")) as { version: string }).version;

/** `tooltrace <args>` in a new project folder (a package.json with an agent library): what it printed, and the folder's files after. */
async function tooltrace(...args: string[]) {
  const folder = mkdtempSync(join(tmpdir(), "tooltrace-init-cli-"));
  writeFileSync(join(folder, "package.json"), JSON.stringify({ name: "app", type: "module", private: true, dependencies: { ai: "*" } }));
  const result = await promisify(execFile)(process.execPath, [bin, ...args], { cwd: folder }).then(
    (done) => ({ code: 0, ...done }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
  return { code: result.code, stdout: result.stdout, stderr: result.stderr, files: readdirSync(folder) };
}

describe("tooltrace init's arguments", () => {
  for (const args of [["init", "--help"], ["init", "-h"], ["init", "help"], ["--help"], ["-h"], ["help"]]) {
    test(`\`tooltrace ${args.join(" ")}\` prints the usage, exits 0 and writes nothing`, async () => {
      // Problem: `init --help` ran init (five files written); `--help` printed the usage with exit code 2.
      const { code, stdout, files } = await tooltrace(...args);
      expect(code).toBe(0);
      expect(stdout).toContain("usage: tooltrace init");
      expect(files).toEqual(["package.json"]);
    });
  }

  for (const args of [["init", "--version"], ["--version"], ["-v"]]) {
    test(`\`tooltrace ${args.join(" ")}\` prints the version, exits 0 and writes nothing`, async () => {
      const { code, stdout, files } = await tooltrace(...args);
      expect(code).toBe(0);
      expect(stdout).toBe(`${version}\n`);
      expect(files).toEqual(["package.json"]);
    });
  }

  test("an option init does not know is refused in one line naming it, exit 2, nothing written", async () => {
    // Problem: unknown flags were ignored and init wrote its files.
    const { code, stdout, stderr, files } = await tooltrace("init", "--frobnicate");
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(stderr).toContain("--frobnicate");
    expect(stderr).toContain("tooltrace --help");
    expect(files).toEqual(["package.json"]);
  });

  test("a command tooltrace does not have is named, with the near one, before the usage", async () => {
    // Problem: `tooltrace inti` printed the usage alone.
    const { code, stderr, files } = await tooltrace("inti");
    expect(code).toBe(2);
    expect(stderr).toContain('unknown command "inti"; did you mean "init"?');
    expect(stderr).toContain("usage: tooltrace init");
    expect(files).toEqual(["package.json"]);
  });
});
