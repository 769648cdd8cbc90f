import { lazyRequire } from "../base/lazy-require.js";
import { checkYamlCase, type YamlEvalCase, yamlError } from "./yaml-case.js";

const loadYaml = lazyRequire<YamlModule>("yaml");

interface YamlModule {
  parseAllDocuments(source: string): readonly {
    readonly errors: readonly { readonly message: string; readonly linePos?: readonly { readonly line: number; readonly col: number }[] }[];
    toJS(): unknown;
  }[];
}

/**
 * The cases of one `*.eval.yaml` file: one per YAML document (`---` between them), or a document that is a
 * list of cases. Each is checked against the schema; a fault names the file, the case and its JSON pointer.
 */
export function readYamlEvalFile(source: string, file: string): YamlEvalCase[] {
  const documents = loadYaml().parseAllDocuments(source);
  const values: unknown[] = [];
  for (const document of documents) {
    const error = document.errors[0];
    if (error) {
      const at = error.linePos?.[0];
      throw yamlError(
        file,
        undefined,
        "",
        `not valid YAML${at ? ` at line ${at.line}, column ${at.col}` : ""}: ${error.message.split("\n")[0]}`,
      );
    }
    const value = document.toJS();
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
