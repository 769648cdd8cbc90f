import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, test } from "vitest";

const run = promisify(execFile);
const root = join(import.meta.dirname, "..", "..");
const work = mkdtempSync(join(tmpdir(), "tooltrace-pack-"));
// A whole install: removing it can take longer than a hook's default 10 s on a slow disk.
afterAll(() => rmSync(work, { recursive: true, force: true }), 120_000);

interface Manifest {
  scripts: Record<string, string>;
}

test("`prepare` builds and does nothing else; no script npm runs on install or pack installs test/compat (it ran npm ci in three folders)", () => {
  const { scripts } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Manifest;
  expect(scripts.prepare).toBe("npm run build");
  for (const hook of ["preinstall", "install", "postinstall", "prepare", "prepack", "postpack", "prepublishOnly"]) {
    expect(scripts[hook] ?? "").not.toMatch(/compat|npm (ci|install)/);
  }
  expect(scripts["test:matrix"]).toBe("node scripts/test-deps.mjs && node scripts/test-matrix.mjs");
  expect(readFileSync(join(root, "scripts", "test-matrix.mjs"), "utf8")).toContain("install-compat.mjs");
});

// A git checkout with its dependencies installed; the compatibility runs work on copies that are neither.
test.skipIf(!existsSync(join(root, ".git")) || !existsSync(join(root, "node_modules")))(
  "a checkout without dist/ packs a complete package, as `npm i -D git+<repo>` does, and the tarball installs and loads",
  async () => {
    // A checkout as git gives it: the tracked files (and this change's new ones), no dist/; its own dependencies
    // installed as npm installs a git dependency's (its devDependencies too, before its `prepare`): only what the
    // build needs, none of the tests' packages (test/deps).
    const { stdout } = await run("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: root });
    const checkout = join(work, "checkout");
    for (const file of stdout.split("\n").filter((line) => line !== "" && !line.startsWith("test/compat/"))) {
      if (!existsSync(join(root, file))) continue;
      mkdirSync(dirname(join(checkout, file)), { recursive: true });
      cpSync(join(root, file), join(checkout, file));
    }
    await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], {
      cwd: checkout,
      maxBuffer: 64 * 1024 * 1024,
    });
    for (const testOnly of [
      "@anthropic-ai/claude-code",
      "@openai/codex",
      "opencode-ai",
      "langchain",
      "playwright-core",
      "jest",
      "@opentelemetry/sdk-trace",
    ])
      expect(existsSync(join(checkout, "node_modules", testOnly)), testOnly).toBe(false);
    expect(existsSync(join(checkout, "dist"))).toBe(false);
    const packed = await run("npm", ["pack", "--json", "--pack-destination", work], { cwd: checkout, maxBuffer: 64 * 1024 * 1024 });
    const [tarball] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf("["))) as { filename: string; files: { path: string }[] }[];
    const files = (tarball?.files ?? []).map((file) => file.path);
    expect(files).toEqual(expect.arrayContaining(["dist/index.js", "dist/vitest-setup.js", "dist/types/src/index.d.ts", "package.json"]));
    // The README's links and images resolve in node_modules/tooltrace (docs/ was left out); the sources are not
    // shipped beside the build (1,156 files, 6.0 MB unpacked, with src/).
    const links = [...readFileSync(join(root, "README.md"), "utf8").matchAll(/\]\(([^)#:]+)[)#]/g)].map((link) => link[1]);
    expect(links.length).toBeGreaterThan(10);
    expect(links.filter((link) => !files.includes(link as string))).toEqual([]);
    expect(files.filter((file) => /^(src|matchers)\/|\.d\.ts\.map$/.test(file))).toEqual([]);
    // The build the pack ran is remembered: building again from the same sources (a git install's `prepare`
    // before its pack, `npm test` after `npm install`) does nothing.
    const again = await run(process.execPath, [join(checkout, "scripts", "build.mjs")], { cwd: checkout });
    expect(again.stderr).toContain("dist/ is already built from these sources");
    // `npm pack --silent` prints the tarball's name alone: scripts read it (tooltrace's line came first before).
    const quiet = await run("npm", ["pack", "--silent", "--pack-destination", work], { cwd: checkout });
    expect(quiet.stdout.trim()).toBe(tarball?.filename);
    // Packing built the package and installed nothing.
    expect(readdirSync(join(checkout, "test")).includes("compat") ? readdirSync(join(checkout, "test", "compat")) : []).toEqual([]);

    const project = join(work, "project");
    mkdirSync(project);
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "newcomer", private: true, type: "module" }));
    await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", join(work, tarball?.filename ?? "")], { cwd: project });
    const script = `const { createSession } = await import("tooltrace");
    const tools = { lookup: (input) => ({ found: input.id }) };
    const session = createSession({ tools, stubs: [{ id: "s", tool: "lookup", outcome: { response: { found: "stub" } } }], agent: () => JSON.stringify(tools.lookup({ id: "A1" })) });
    console.log((await session.send("go")).text);`;
    const loaded = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: project });
    expect(loaded.stdout.trim()).toBe('{"found":"stub"}');
  },
  240_000,
);
