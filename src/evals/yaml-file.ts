import { lazyRequire } from "../base/lazy-require.js";
import { checkYamlCase, type YamlEvalCase, yamlError } from "./yaml-case.js";

const loadYaml = lazyRequire<YamlModule>("yaml");

interface YamlProblem {
  readonly code?: string;
  readonly message: string;
  readonly linePos?: readonly { readonly line: number; readonly col: number }[];
}

interface YamlModule {
  parseAllDocuments(source: string): readonly {
    readonly errors: readonly YamlProblem[];
    readonly warnings: readonly YamlProblem[];
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
  const bytes = Buffer.byteLength(source);
  if (bytes > MAX_FILE_BYTES)
    throw yamlError(
      file,
      undefined,
      "",
      `the file is ${(bytes / 1e6).toFixed(1)} MB; a YAML eval is read whole, up to 1 MB.`,
      "split its cases into several .eval.yaml files.",
    );
  const documents = loadYaml().parseAllDocuments(source);
  const values: unknown[] = [];
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
    values.push(...(Array.isArray(value) ? value : [value]));
  }
  if (values.length === 0) throw yamlError(file, undefined, "", "no case in the file.", "write a case with name, input.query and mocks.");
  const cases = values.map((value, index) => checkYamlCase(value, file, index));
  const seen = new Set<string>();
  for (const evalCase of cases) {
    if (seen.has(evalCase.name))
      throw yamlError(file, evalCase.name, "/name", "two cases have this name.", "give each case its own name: it is the test's name.");
    seen.add(evalCase.name);
  }
  return cases;
}

function lineOf(problem: YamlProblem): string {
  const at = problem.linePos?.[0];
  return at ? ` at line ${at.line}, column ${at.col}` : "";
}
