import { type ConfigErrorLocation, StubConfigError, pointerOf } from "../exits/errors.js";
import { excerpt } from "../exits/excerpt.js";

/** The configuration limits of one session's stubs (and, with `mocks` for `rules`, of its HTTP mocks). */
export const STUB_LIMITS = {
  rules: 100,
  /** HTTP mocks of one session, the plugin's included. */
  mocks: 1000,
  nodes: 20_000,
  depth: 32,
  characters: 1_000_000,
  /** A property name. */
  keyLength: 1024,
  /** One `pattern`, and how many a session's rules hold in all. */
  patternLength: 1000,
  patterns: 200,
  /** Constraints in one `allOf`, `anyOf`, `oneOf` or `prefixItems`; values in one `enum`. */
  branches: 100,
  enumValues: 1000,
} as const;

type What = "stub rule" | "HTTP mock";

/** What {@link plainCopyOf} read. */
export interface PlainCopy {
  readonly items: unknown[];
  /**
   * True when every value is plain JSON (objects, arrays, strings, finite numbers other than -0, booleans,
   * null), so `JSON.stringify(items)` names the copy exactly: two copies with the same JSON are the same.
   */
  readonly json: boolean;
}

/**
 * Reads `items` (a session's stubs or HTTP mocks) once, into a plain copy, checking the limits on the way:
 * count, size, depth, cycles, key length, the number of patterns, and the reserved `__proto__`. A getter or a
 * Proxy's trap that throws, a cycle or a limit fails here with the rule's id and the JSON pointer, before
 * anything else reads the input, so everything after works on plain data. RegExps (an HTTP mock's `url`)
 * are kept as they are.
 */
export function plainCopyOf(items: readonly unknown[], what: What): PlainCopy {
  const max = what === "stub rule" ? STUB_LIMITS.rules : STUB_LIMITS.mocks;
  let length: number;
  try {
    length = items.length;
  } catch (error) {
    throw new StubConfigError({ pointer: "", what }, `reading the ${plural(what)} threw: ${excerpt(message(error), 120)}`, FIX);
  }
  if (length > max)
    throw new StubConfigError(
      { pointer: "", what },
      `${length} ${plural(what)} given; a session accepts at most ${max}.`,
      what === "stub rule"
        ? "split the scenario into several sessions, or merge rules with `match` and `anyOf`."
        : "merge mocks with URL patterns and `match`.",
    );
  const counts = { nodes: 0, characters: 0, patterns: 0, foreign: 0 };
  const copies: unknown[] = [];
  for (let index = 0; index < length; index++) {
    const path: string[] = [];
    let id: string | undefined;
    const at = (): ConfigErrorLocation => ({
      ruleIndex: index,
      ...(id === undefined ? {} : { ruleId: id }),
      pointer: pointerOf(path),
      what,
    });
    // One guard around the whole item: a getter or a trap that throws leaves `path` where it was reading.
    try {
      const item = items[index];
      id = idOf(item);
      copies.push(copy(item, path, [], at, counts));
    } catch (error) {
      if (error instanceof StubConfigError) throw error;
      throw new StubConfigError(at(), `reading this property threw: ${excerpt(message(error), 120)}.`, FIX);
    }
  }
  return { items: copies, json: counts.foreign === 0 };
}

const FIX = "pass plain JSON: arrays and objects of values, not proxies or getters.";

function copy(value: unknown, path: string[], ancestors: object[], at: () => ConfigErrorLocation, counts: Counts): unknown {
  counts.nodes += 1;
  if (counts.nodes > STUB_LIMITS.nodes)
    throw new StubConfigError(at(), `they hold more than ${STUB_LIMITS.nodes} JSON nodes.`, sizeFix(path));
  if (typeof value === "string") count(counts, value.length, at, path);
  if (value === null || typeof value !== "object" || value instanceof RegExp) {
    if (!isJsonScalar(value)) counts.foreign += 1;
    return value;
  }
  if (ancestors.includes(value))
    throw new StubConfigError(at(), "the value is cyclic: it contains itself.", "pass a copy without the cycle.");
  if (path.length > STUB_LIMITS.depth)
    throw new StubConfigError(at(), `nesting deeper than ${STUB_LIMITS.depth} levels.`, "flatten this value.");
  const array = Array.isArray(value);
  // A Date, a Map, an instance of a class: not JSON, kept as it is for the validation after to refuse by name.
  const proto = array ? Array.prototype : (Object.getPrototypeOf(value) as unknown);
  if (!array && proto !== Object.prototype && proto !== null) {
    counts.foreign += 1;
    return value;
  }
  ancestors.push(value);
  let result: unknown;
  if (array) {
    const array = value as readonly unknown[];
    const items: unknown[] = [];
    const length = array.length;
    for (let i = 0; i < length; i++) {
      path.push(String(i));
      items.push(copy(array[i], path, ancestors, at, counts));
      path.pop();
    }
    result = items;
  } else {
    const object: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      if (key.length > STUB_LIMITS.keyLength) {
        path.push(`${key.slice(0, 40)}…`);
        throw new StubConfigError(
          at(),
          `a property name of ${key.length} characters; names are at most ${STUB_LIMITS.keyLength}.`,
          "shorten the name.",
        );
      }
      path.push(key);
      if (key === "__proto__")
        throw new StubConfigError(
          at(),
          'the property name "__proto__" is reserved.',
          "rename the property; it cannot be matched or returned.",
        );
      count(counts, key.length, at, path);
      const item = (value as Record<string, unknown>)[key];
      if (key === "pattern" && typeof item === "string" && ++counts.patterns > STUB_LIMITS.patterns)
        throw new StubConfigError(
          at(),
          `more than ${STUB_LIMITS.patterns} patterns in one session's rules.`,
          "merge patterns into one with `|`, or use `enum`.",
        );
      // As in JSON, a property whose value is `undefined` is not there (`{ b?: undefined }` in a typed rule array).
      if (item !== undefined) object[key] = copy(item, path, ancestors, at, counts);
      path.pop();
    }
    result = object;
  }
  ancestors.pop();
  return result;
}

interface Counts {
  nodes: number;
  characters: number;
  patterns: number;
  /** Values that are not plain JSON (a Date, NaN, a function, a hole read as `undefined`). */
  foreign: number;
}

function isJsonScalar(value: unknown): boolean {
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0);
  return value === null || typeof value === "string" || typeof value === "boolean";
}

function count(counts: Counts, characters: number, at: () => ConfigErrorLocation, path: readonly string[]): void {
  counts.characters += characters;
  if (counts.characters > STUB_LIMITS.characters)
    throw new StubConfigError(at(), `they hold more than about ${STUB_LIMITS.characters} characters.`, sizeFix(path));
}

/** The item's `id`, for messages about it, when it has a readable string one. */
function idOf(item: unknown): string | undefined {
  try {
    const id = item !== null && typeof item === "object" ? (item as { id?: unknown }).id : undefined;
    return typeof id === "string" && id !== "" ? id : undefined;
  } catch {
    return undefined;
  }
}

function message(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return "an error";
  }
}

function plural(what: What): string {
  return what === "stub rule" ? "stub rules" : "HTTP mocks";
}

/** Where the size went decides the fix: a constraint too large to check, or a fixture too large to keep in a rule. */
function sizeFix(path: readonly string[]): string {
  return path[0] === "match"
    ? "match on fewer values: a `pattern` instead of a long `enum`, or one rule per case."
    : "shorten the responses; keep large fixtures in the real tool or a cassette.";
}
