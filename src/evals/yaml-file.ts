import { resolve } from "node:path";
import { StubConfigError } from "../exits/errors.js";
import { lazyRequire } from "../base/lazy-require.js";
import { checkYamlCase, type YamlEvalCase, type YamlFault, yamlError } from "./yaml-case.js";
import { type LocatedYamlCase, locatedCase, pointAtYaml, type YamlPlace } from "./yaml-located.js";
import { offsetOf, type YamlNodes } from "./yaml-locate.js";
import { yamlSessionParts } from "./yaml-mocks.js";

const loadYaml = lazyRequire<YamlModule>("yaml");

interface YamlProblem {
  readonly code?: string;
  readonly message: string;
  readonly linePos?: readonly { readonly line: number; readonly col: number }[];
}

interface LineCounter {
  linePos(offset: number): { line: number; col: number };
}

interface YamlModule extends YamlNodes {
  LineCounter: new () => LineCounter;
  parseAllDocuments(
    source: string,
    options: { lineCounter: LineCounter },
  ): readonly {
    readonly errors: readonly YamlProblem[];
    readonly warnings: readonly YamlProblem[];
    readonly contents: unknown;
    toJS(options: { maxAliasCount: number }): unknown;
  }[];
}

/** A YAML eval is read whole: past this size it is refused before parsing. */
const MAX_FILE_BYTES = 1_000_000;
/** How many times aliases may expand in one document before it is refused as an alias bomb. */
const MAX_ALIAS_COUNT = 100;

/**
 * The cases of one `*.eval.yaml` file: one per YAML document (`---` between them), or a document that is a
 * list of cases. Each is checked against the schema; a fault names the file, the case and its JSON pointer.
 */
export function readYamlEvalFile(source: string, file: string): YamlEvalCase[] {
  return readLocatedYamlCases(source, file).map((located) => located.evalCase);
}

/**
 * The cases of one file as {@link readYamlEvalFile} reads them, each with where its fields are written (for the
 * faults found as it runs). `file` names the file in messages; `path` is its absolute path, for stack frames.
 */
export function readLocatedYamlCases(source: string, file: string, path = resolve(file)): LocatedYamlCase[] {
  const bytes = Buffer.byteLength(source);
  if (bytes > MAX_FILE_BYTES)
    throw yamlError(
      file,
      undefined,
      "",
      `the file is ${(bytes / 1e6).toFixed(1)} MB; a YAML eval is read whole, up to 1 MB.`,
      "split its cases into several .eval.yaml files.",
    );
  const yaml = loadYaml();
  const lineCounter = new yaml.LineCounter();
  const documents = yaml.parseAllDocuments(source, { lineCounter });
  const values: { readonly value: unknown; readonly root: unknown; readonly prefix: readonly string[] }[] = [];
  for (const document of documents) {
    const error = document.errors[0];
    if (error)
      throw yamlError(
        file,
        undefined,
        "",
        `not valid YAML${lineOf(error)}: ${error.message.split("\n")[0]?.replace(/ at line \d+, column \d+:?$/, "")}`,
      );
    const tag = document.warnings.find((warning) => warning.code === "TAG_RESOLVE_FAILED");
    if (tag)
      throw yamlError(
        file,
        undefined,
        "",
        `a tag tooltrace does not resolve${lineOf(tag)} (${/tag: (\S+)/.exec(tag.message)?.[1] ?? "custom"}): a YAML eval is plain data, and no tag runs.`,
        "remove the tag and write the value as plain YAML.",
      );
    let value: unknown;
    try {
      value = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (thrown) {
      if (!(thrown instanceof ReferenceError)) throw thrown;
      const alias = /(^|[\s,[{])\*[^\s,\]}]+/m.exec(source);
      const line =
        alias === null ? "" : ` (the first at line ${source.slice(0, alias.index + (alias[1] ?? "").length).split("\n").length})`;
      throw yamlError(
        file,
        undefined,
        "",
        `its aliases${line} expand more than ${MAX_ALIAS_COUNT} times: refused as an alias bomb, which would fill the memory.`,
        "write the values out, or use fewer aliases.",
      );
    }
    if (value === null || value === undefined) continue;
    const root = document.contents;
    if (Array.isArray(value)) values.push(...value.map((item, i) => ({ value: item, root, prefix: [String(i)] })));
    else values.push({ value, root, prefix: [] });
  }
  if (values.length === 0) throw yamlError(file, undefined, "", "no case in the file.", "write a case with name, input.query and mocks.");
  // Every fault of every case at once, each at the line and column of its key.
  const located: { readonly fault: YamlFault; readonly at: YamlPlace }[] = [];
  const cases: LocatedYamlCase[] = [];
  const seen = new Set<string>();
  values.forEach(({ value, root, prefix }, index) => {
    const at = (pointer: string): YamlPlace =>
      lineCounter.linePos(offsetOf(yaml, root, [...prefix, ...pointer.split("/").slice(1).map(unescapePointer)]) ?? 0);
    const faults: YamlFault[] = [];
    const evalCase = checkYamlCase(value, index, faults);
    if (evalCase !== undefined) {
      try {
        yamlSessionParts(file, evalCase);
      } catch (error) {
        if (!(error instanceof StubConfigError)) throw error;
        const [problem, fix] = error.message.replace(/^\[tooltrace\] [^:]*: /, "").split("\n  Fix: ");
        faults.push({ caseName: evalCase.name, pointer: error.pointer, problem: problem ?? error.message, fix });
      }
      if (seen.has(evalCase.name))
        faults.push({
          caseName: evalCase.name,
          pointer: "/name",
          problem: "two cases have this name.",
          fix: "give each case its own name: it is the test's name.",
        });
      seen.add(evalCase.name);
      if (faults.length === 0) cases.push(locatedCase(evalCase, file, path, at));
    }
    for (const fault of faults) located.push({ fault, at: at(fault.pointer) });
  });
  if (located.length > 0) throw faultsError(file, path, located);
  return cases;
}

function unescapePointer(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** One error for the file's faults: alone, as every tooltrace error names one; several, listed one a line. */
function faultsError(file: string, path: string, located: readonly { fault: YamlFault; at: YamlPlace }[]): StubConfigError {
  const place = ({ at }: { at: YamlPlace }) => `${file}:${at.line}:${at.col}`;
  const first = located[0] as (typeof located)[number];
  const error =
    located.length === 1
      ? yamlError(place(first), first.fault.caseName, first.fault.pointer, first.fault.problem, first.fault.fix)
      : yamlError(
          file,
          undefined,
          "",
          `${located.length} faults, each where it is written:\n${located
            .map(
              (entry) =>
                `  - ${place(entry)}, case "${entry.fault.caseName}"${entry.fault.pointer === "" ? "" : ` at ${entry.fault.pointer}`}: ${entry.fault.problem}${entry.fault.fix ? ` Fix: ${entry.fault.fix}` : ""}`,
            )
            .join("\n")}`,
        );
  // Vitest shows the code at the stack's first place: the first fault's key, in the YAML file.
  return pointAtYaml(error, path, first.at);
}

function lineOf(problem: YamlProblem): string {
  const at = problem.linePos?.[0];
  return at ? ` at line ${at.line}, column ${at.col}` : "";
}
