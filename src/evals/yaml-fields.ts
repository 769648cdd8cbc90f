import { suggestName } from "../stubs/suggest.js";

/** The fields of a YAML eval case, by the mapping they belong to. */
export const YAML_FIELDS = {
  case: ["name", "adapter", "agent", "input", "expected", "thresholds", "mocks", "stubs", "http", "faults", "description", "tags"],
  input: ["query", "turns", "context"],
  expected: ["tools", "sequence", "output"],
  output: ["contains", "not_contains"],
  thresholds: ["min_score", "min_pass_rate", "max_cost", "max_latency"],
  mocks: ["seed", "strict", "variants", "tool_mocks", "response_mocks", "http_mocks"],
  tool: ["tool", "match_params", "returns", "error", "latency_ms"],
  response: ["match_prompt", "regex", "returns"],
  http: ["url_pattern", "regex", "method", "status", "body"],
} as const;

/** Every field below the case's own by its dotted name (`expected.tools`): where a key written at the top belongs. */
const NESTED: readonly string[] = [
  ...(["input", "expected", "thresholds", "mocks"] as const).flatMap((parent) => YAML_FIELDS[parent].map((key) => `${parent}.${key}`)),
  ...YAML_FIELDS.output.map((key) => `expected.output.${key}`),
];

/**
 * What to write instead of the unknown field `key` among `fields`: the field it is a typo of (`thresold`), or at
 * the case's top, the nested field it names (`expected_tool`, `min_score`); else the fields there are.
 */
export function unknownFieldFix(key: string, fields: readonly string[], atTop: boolean): string {
  const near = suggestName(key, fields) ?? (atTop ? (suggestName(key.replace(/[_.-]+/g, "."), NESTED) ?? nestedLeaf(key)) : undefined);
  return near === undefined ? `use one of: ${fields.join(", ")}.` : `did you mean \`${near}\`? Fields here: ${fields.join(", ")}.`;
}

function nestedLeaf(key: string): string | undefined {
  const leaf = suggestName(
    key,
    NESTED.map((path) => path.slice(path.lastIndexOf(".") + 1)),
  );
  return leaf === undefined ? undefined : NESTED.find((path) => path.endsWith(`.${leaf}`));
}
