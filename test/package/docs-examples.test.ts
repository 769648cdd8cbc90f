import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify, stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  isTestFile,
  type JestDocument,
  type JestFile,
  runJest,
  runsUnderJest,
  VITEST_ONLY,
  vitestOnlyBy,
  writeJestRun,
} from "../fixtures/docs-jest.js";
import { projectInstalled, writeStrictTsconfig } from "../fixtures/installed-project.js";

const root = join(import.meta.dirname, "../..");
const run = promisify(execFile);
// The compatibility runs work on copies without the documents: what they show does not depend on Node's version.
const hasDocs = existsSync(join(root, "docs"));
const DOCS = hasDocs
  ? [
      "README.md",
      ...readdirSync(join(root, "docs"))
        .filter((name) => name.endsWith(".md"))
        .map((name) => `docs/${name}`),
    ]
  : [];

/** A fenced block of TypeScript or YAML: the file its first line names, and its text. */
interface Example {
  readonly path: string;
  readonly text: string;
  readonly line: number;
}

/** Every TypeScript and YAML block of a document; a block whose first line names no file is an error. */
function examplesOf(doc: string): { examples: Example[]; problems: string[] } {
  const text = readFileSync(join(root, doc), "utf8");
  const examples: Example[] = [];
  const problems: string[] = [];
  for (const match of text.matchAll(/^```(ts|typescript|yaml|yml)\n([\s\S]*?)^```$/gm)) {
    const line = text.slice(0, match.index).split("\n").length;
    const body = match[2] as string;
    const named = /^(?:\/\/|#) ([\w./-]+\.(?:ts|mts|yaml|yml))\b/.exec(body);
    if (named === null) problems.push(`${doc}:${line}: a ${match[1]} block whose first line names no file (// path or # path)`);
    else examples.push({ path: named[1] as string, text: body, line });
  }
  const seen = new Map<string, Example>();
  for (const example of examples) {
    const before = seen.get(example.path);
    if (before !== undefined && before.text !== example.text)
      problems.push(`${doc}:${example.line}: ${example.path} is shown twice, differently (first at line ${before.line})`);
    seen.set(example.path, example);
  }
  return { examples: [...seen.values()], problems };
}

/** The packages the examples import, at the versions this checkout installed (so npm takes them from its cache). */
const PACKAGES = [
  "vitest",
  "typescript",
  "@types/node",
  "ai",
  "zod",
  "openai",
  "@anthropic-ai/sdk",
  "@openai/agents",
  "langchain",
  "@langchain/core",
  "@langchain/openai",
  "@modelcontextprotocol/sdk",
  "@ai-sdk/openai",
  "@ai-sdk/google",
  "@google/genai",
  "hono",
  "@hono/node-server",
  "jest",
];
/** ts-jest, which the Jest run of the examples transforms TypeScript with, as a Jest user's project does. */
const TS_JEST = "ts-jest@29.4.15";
/** The CLI agents, linked from this checkout's install rather than installed again (hundreds of megabytes). */
const LINKED = ["@anthropic-ai/claude-code", "@openai/codex", "opencode-ai", "@google/gemini-cli"];

function versionOf(name: string): string {
  return (JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
}

let work: string;
let base: string;
/** Each document's project, by document. */
const projects = new Map<string, string>();
/** The Jest run's config, and each document's part of it. */
let jest: { config: string; documents: JestDocument[] };
/** The type-check's diagnostics, each with its continuation lines. */
let diagnostics: string[] = [];

/** A document's folder under the work folder. */
function folderOf(doc: string): string {
  return doc.replace(/\W+/g, "-");
}

/**
 * What tsc said about a document's files, and what it said about no document's files (a missing type package,
 * a library's file), which every document's test reports.
 */
function diagnosticsOf(doc: string): string {
  const folders = [...projects.keys()].map((each) => `${folderOf(each)}/`);
  return diagnostics
    .filter((diagnostic) => diagnostic.startsWith(`${folderOf(doc)}/`) || !folders.some((folder) => diagnostic.startsWith(folder)))
    .join("\n");
}

// One install from the packed tarball, as the README's Quick start does it; each document gets a project of its
// own beside it, with the same packages.
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "tooltrace-docs-"));
  const packed = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], { cwd: root, maxBuffer: 64 << 20 });
  const [tarball] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf("["))) as { filename: string }[];
  base = join(work, "base");
  mkdirSync(base);
  writeFileSync(join(base, "package.json"), JSON.stringify({ name: "docs-base", private: true, type: "module" }));
  await run(
    "npm",
    [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      "-D",
      join(work, tarball?.filename ?? ""),
      ...PACKAGES.map((name) => `${name}@${versionOf(name)}`),
      TS_JEST,
    ],
    { cwd: base, maxBuffer: 64 << 20 },
  );
  for (const name of LINKED) {
    const target = join(base, "node_modules", name);
    mkdirSync(dirname(target), { recursive: true });
    if (!existsSync(target) && existsSync(join(root, "node_modules", name))) symlinkSync(join(root, "node_modules", name), target, "dir");
  }
  // Every document's project, then one tsc program over all of them: each run of tsc would load the same SDKs'
  // types again (17 runs took a minute). Each diagnostic goes to the document whose folder its file is in.
  const documents = DOCS.map((doc) => ({ doc, ...examplesOf(doc) })).filter(({ examples }) => examples.length > 0);
  for (const { doc, examples } of documents) projects.set(doc, projectFor(doc, examples));
  jest = writeJestRun(
    work,
    documents.map(({ doc, examples }) => ({ doc, examples, vitestProject: projects.get(doc) as string })),
  );
  symlinkSync(join(base, "node_modules"), join(work, "node_modules"), "dir");
  writeStrictTsconfig(work, {
    include: documents.map(({ doc }) => `${folderOf(doc)}/**/*.ts`),
    exclude: ["**/node_modules"],
    skipLibCheck: true,
    types: ["node"],
  });
  const tsc = await run(process.execPath, [join(base, "node_modules", "typescript", "bin", "tsc"), "-p", work, "--pretty", "false"], {
    cwd: work,
    maxBuffer: 64 << 20,
  }).catch((error: { stdout: string; stderr: string }) => error);
  diagnostics = `${tsc.stdout}${tsc.stderr}`
    .split(/\n(?=\S)/)
    .map((diagnostic) => diagnostic.trimEnd())
    .filter((diagnostic) => diagnostic !== "");
}, 300_000);
// A whole install: removing it can take longer than a hook's default 10 s on a slow disk.
afterAll(() => rmSync(work, { recursive: true, force: true }), 120_000);

/** A document's project: the base install's packages (the CLI agents among them), and the document's files. */
function projectFor(doc: string, examples: readonly Example[]): string {
  const project = join(work, folderOf(doc));
  mkdirSync(join(project, "node_modules"), { recursive: true });
  for (const entry of readdirSync(join(base, "node_modules"))) {
    if (entry.startsWith("@")) {
      mkdirSync(join(project, "node_modules", entry), { recursive: true });
      for (const scoped of readdirSync(join(base, "node_modules", entry)))
        symlinkSync(join(base, "node_modules", entry, scoped), join(project, "node_modules", entry, scoped), "dir");
    } else symlinkSync(join(base, "node_modules", entry), join(project, "node_modules", entry), "dir");
  }
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "docs", private: true, type: "module" }));
  writeStrictTsconfig(project, { include: ["**/*.ts"], exclude: ["node_modules"], skipLibCheck: true, types: ["node"] });
  for (const example of examples) {
    mkdirSync(dirname(join(project, example.path)), { recursive: true });
    writeFileSync(join(project, example.path), example.text);
  }
  if (!examples.some((example) => example.path.startsWith("vitest.config.")))
    writeFileSync(
      join(project, "vitest.config.ts"),
      'import { defineConfig } from "vitest/config";\nimport { tooltrace } from "tooltrace/vitest";\n\nexport default defineConfig({ plugins: [tooltrace()] });\n',
    );
  return project;
}

let jestRun: Promise<JestFile[]> | undefined;

/** The one Jest run of every document's runner-neutral examples: each document's test reads its files' results. */
function runJestOnce(): Promise<JestFile[]> {
  jestRun ??= runJest(work, join(base, "node_modules", "jest", "bin", "jest.js"), jest.config);
  return jestRun;
}

/** A document's test files that run under Jest too, by their text (before the projects are written). */
function jestFilesOf(doc: string): Example[] {
  return examplesOf(doc).examples.filter((example) => isTestFile(example.path) && runsUnderJest(doc, example));
}

describe.skipIf(!projectInstalled || !hasDocs)("every example of the README and docs/ runs as written", () => {
  test("no line of the README or docs/ is over 120 characters", () => {
    const long = DOCS.flatMap((doc) =>
      readFileSync(join(root, doc), "utf8")
        .split("\n")
        .flatMap((line, index) => (line.length > 120 && !/^\s*<|!\[|\]\(/.test(line) ? [`${doc}:${index + 1} (${line.length})`] : [])),
    );
    expect(long).toEqual([]);
  });

  for (const doc of DOCS) {
    const { examples, problems } = examplesOf(doc);
    test.skipIf(examples.length === 0 && problems.length === 0)(
      `${doc}: every block names its file, type-checks under strict, and its evals pass`,
      { timeout: 300_000 },
      async () => {
        expect(problems).toEqual([]);
        const project = projects.get(doc) as string;
        expect(diagnosticsOf(doc)).toBe("");
        const evals = examples.filter((example) => /\.eval\.(ts|yaml|yml)$|\.test\.ts$/.test(example.path));
        if (evals.length === 0) return;
        // `-u`: a fresh project writes its trace snapshots on the first run, as it would on a laptop (CI would not).
        const result = await run(process.execPath, [join(base, "node_modules", "vitest", "vitest.mjs"), "run", "-u"], {
          cwd: project,
          env: { ...process.env, CI: "1", TOOLTRACE_CASSETTE: "", TOOLTRACE_STRICT: "" },
          maxBuffer: 64 << 20,
        }).catch((error: { stdout: string; stderr: string }) => error);
        const output = stripVTControlCharacters(`${result.stdout}\n${result.stderr}`);
        expect(output).toMatch(/Tests\s+\d+ passed \(\d+\)/);
        expect(output).not.toMatch(/\d+ failed/);
      },
    );
  }

  test("the examples left to Vitest are the ones the docs test names, each with why (the rest run under Jest too)", () => {
    expect(jest.documents.flatMap((part) => part.skipped).sort()).toEqual(Object.keys(VITEST_ONLY).sort());
    const unnamed = DOCS.flatMap((doc) =>
      examplesOf(doc).examples.flatMap((example) => {
        const why = vitestOnlyBy(example);
        return why !== undefined && VITEST_ONLY[`${doc} ${example.path}`] === undefined ? [`${doc} ${example.path}: ${why}`] : [];
      }),
    );
    expect(unnamed).toEqual([]);
  });

  for (const doc of DOCS)
    test.skipIf(jestFilesOf(doc).length === 0)(
      `${doc}: its runner-neutral examples pass under Jest 30 too`,
      { timeout: 300_000 },
      async () => {
        const results = await runJestOnce();
        const part = jest.documents.find((each) => each.doc === doc) as JestDocument;
        expect(part.files).toEqual(jestFilesOf(doc).map((example) => example.path));
        for (const file of part.files) {
          const result = results.find((each) => each.name === join(part.folder, file));
          expect(result, `${file} did not run under Jest`).toBeDefined();
          const failures = (result as JestFile).assertionResults.filter((each) => each.status !== "passed");
          const why = [(result as JestFile).message, ...failures.flatMap((each) => [each.fullName, ...each.failureMessages])];
          expect(failures.length === 0 && (result as JestFile).assertionResults.length > 0, `${file}:\n${why.join("\n")}`).toBe(true);
        }
      },
    );

  test("the README's first eval is what `tooltrace init` writes for an AI SDK project", async () => {
    const project = join(work, "init-ai-sdk");
    mkdirSync(join(project, "node_modules"), { recursive: true });
    symlinkSync(join(base, "node_modules", "tooltrace"), join(project, "node_modules", "tooltrace"), "dir");
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({ name: "init", private: true, type: "module", devDependencies: { ai: "*" } }),
    );
    await run(process.execPath, [join(project, "node_modules", "tooltrace", "dist", "bin.js"), "init"], { cwd: project });
    const shown = new Map(examplesOf("README.md").examples.map((example) => [example.path, example.text]));
    for (const path of ["vitest.config.ts", "evals/weather-agent.ts", "evals/weather-model.ts", "evals/weather.eval.ts"])
      expect(shown.get(path), path).toBe(readFileSync(join(project, path), "utf8"));
  });
});
