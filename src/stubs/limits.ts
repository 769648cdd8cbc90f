import { StubConfigError, pointerToken } from "../errors.js";

/** The configuration limits of one session's stubs. */
export const STUB_LIMITS = {
  rules: 100,
  nodes: 20_000,
  depth: 32,
  characters: 1_000_000,
} as const;

/**
 * Checks the size limits and the reserved `__proto__` name over the whole `stubs` array,
 * before any rule is read, so a huge or hostile fixture fails fast.
 */
export function checkStubLimits(stubs: readonly unknown[]): void {
  if (stubs.length > STUB_LIMITS.rules) {
    throw new StubConfigError(
      { pointer: "" },
      `${stubs.length} rules given; a session accepts at most ${STUB_LIMITS.rules}.`,
      "split the scenario into several sessions, or merge rules with `match` and `anyOf`.",
    );
  }
  let nodes = 0;
  let characters = 0;
  const visit = (value: unknown, depth: number, ruleIndex: number, pointer: string): void => {
    nodes += 1;
    if (nodes > STUB_LIMITS.nodes) {
      throw new StubConfigError(
        { ruleIndex, pointer },
        `the stubs hold more than ${STUB_LIMITS.nodes} JSON nodes.`,
        "shorten the responses; keep large fixtures in the real tool or a cassette.",
      );
    }
    if (depth > STUB_LIMITS.depth) {
      throw new StubConfigError({ ruleIndex, pointer }, `nesting deeper than ${STUB_LIMITS.depth} levels.`, "flatten this value.");
    }
    if (typeof value === "string") {
      characters += value.length;
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => visit(item, depth + 1, ruleIndex, `${pointer}/${i}`));
    } else if (value !== null && typeof value === "object") {
      for (const key of Object.keys(value)) {
        if (key === "__proto__") {
          throw new StubConfigError(
            { ruleIndex, pointer: `${pointer}/__proto__` },
            `the property name "__proto__" is reserved.`,
            "rename the property; it cannot be matched or returned.",
          );
        }
        characters += key.length;
        visit((value as Record<string, unknown>)[key], depth + 1, ruleIndex, `${pointer}/${pointerToken(key)}`);
      }
    } else {
      characters += String(value).length;
    }
    if (characters > STUB_LIMITS.characters) {
      throw new StubConfigError(
        { ruleIndex, pointer },
        `the stubs hold more than about ${STUB_LIMITS.characters} characters.`,
        "shorten the responses; keep large fixtures in the real tool or a cassette.",
      );
    }
  };
  stubs.forEach((rule, i) => visit(rule, 0, i, ""));
}
