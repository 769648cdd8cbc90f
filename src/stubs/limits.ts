import { StubConfigError, pointerToken } from "../base/errors.js";

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
  // The path and the objects on it, kept as stacks: a pointer is built only for an error message.
  const path: (string | number)[] = [];
  const ancestors: object[] = [];
  const here = () => path.map((token) => `/${pointerToken(token)}`).join("");
  const visit = (value: unknown, ruleIndex: number): void => {
    nodes += 1;
    if (nodes > STUB_LIMITS.nodes) {
      throw new StubConfigError(
        { ruleIndex, pointer: here() },
        `the stubs hold more than ${STUB_LIMITS.nodes} JSON nodes.`,
        "shorten the responses; keep large fixtures in the real tool or a cassette.",
      );
    }
    if (typeof value === "string") {
      characters += value.length;
    } else if (value !== null && typeof value === "object") {
      if (ancestors.includes(value))
        throw new StubConfigError(
          { ruleIndex, pointer: here() },
          "the value is cyclic: it contains itself.",
          "stubs are plain JSON; pass a copy without the cycle.",
        );
      if (path.length > STUB_LIMITS.depth)
        throw new StubConfigError(
          { ruleIndex, pointer: here() },
          `nesting deeper than ${STUB_LIMITS.depth} levels.`,
          "flatten this value.",
        );
      ancestors.push(value);
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          path.push(i);
          visit(value[i], ruleIndex);
          path.pop();
        }
      } else {
        for (const key of Object.keys(value)) {
          if (key === "__proto__") {
            path.push(key);
            throw new StubConfigError(
              { ruleIndex, pointer: here() },
              `the property name "__proto__" is reserved.`,
              "rename the property; it cannot be matched or returned.",
            );
          }
          characters += key.length;
          path.push(key);
          let item: unknown;
          try {
            item = (value as Record<string, unknown>)[key];
          } catch (error) {
            throw new StubConfigError(
              { ruleIndex, pointer: here() },
              `reading this property threw: ${error instanceof Error ? error.message : String(error)}.`,
              "stubs are plain JSON: pass the value itself, not a getter.",
            );
          }
          visit(item, ruleIndex);
          path.pop();
        }
      }
      ancestors.pop();
    } else {
      characters += String(value).length;
    }
    if (characters > STUB_LIMITS.characters) {
      throw new StubConfigError(
        { ruleIndex, pointer: here() },
        `the stubs hold more than about ${STUB_LIMITS.characters} characters.`,
        "shorten the responses; keep large fixtures in the real tool or a cassette.",
      );
    }
  };
  for (const [i, rule] of stubs.entries()) visit(rule, i);
}
