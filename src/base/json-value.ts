/**
 * A JSON-safe copy of any value a tool, a model or an agent produced, for reporters and files.
 * Unlike `JSON.stringify` with a "seen" set, only a true cycle (an object inside itself) becomes
 * `"[Circular]"`: an object that appears twice side by side is copied twice, intact.
 * - `toJSON()` is honoured (dates become ISO strings);
 * - a bigint becomes its decimal string, a function `"[Function name]"`, a symbol its description;
 * - `undefined` (and functions, symbols) in an object are dropped, in an array become `null`, as JSON does;
 * - a `Map` becomes an object of its entries (string keys) or an array of pairs, a `Set` an array;
 * - an `Error` keeps its name and message;
 * - a getter (or a Proxy's trap) that throws gives `"[Threw: message]"` instead of failing the whole copy;
 * - past `MAX_COPY_DEPTH` (256) levels a value becomes a marker, so a hostile input never overflows the stack.
 */
export function toJsonValue(value: unknown): unknown {
  let plain: boolean;
  try {
    plain = isPlainJson(value, 0, new Set());
  } catch {
    plain = false; // a getter threw: the copy records it
  }
  return plain ? value : copy(value, new Set());
}

/** How deep a copy goes; what is deeper is recorded as a marker saying so. */
export const MAX_COPY_DEPTH = 256;
const TOO_DEEP = `[Deeper than ${MAX_COPY_DEPTH} levels]`;

/** Deep enough to hold any reasonable tool result; past it, the copy (which handles cycles) decides. */
const MAX_PLAIN_DEPTH = 64;

/**
 * True for a value that is already JSON (plain objects and arrays, strings, finite numbers, booleans, null,
 * no `undefined` inside). Such a value is returned as it is: checking it allocates nothing, copying it would.
 */
function isPlainJson(value: unknown, depth: number, checked: Set<object>): boolean {
  if (value === null) return true;
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value);
    case "object": {
      if (depth > MAX_PLAIN_DEPTH) return false;
      // An object shared by reference (a message many requests repeat) is checked once.
      if (checked.has(value as object)) return true;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!isPlainJson(value[i], depth + 1, checked)) return false;
        checked.add(value);
        return true;
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) return false;
      for (const key in value) {
        if (!Object.hasOwn(value, key) || !isPlainJson((value as Record<string, unknown>)[key], depth + 1, checked)) return false;
      }
      checked.add(value as object);
      return true;
    }
    default:
      return false;
  }
}

function copy(value: unknown, ancestors: Set<object>): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : null;
    case "bigint":
      return value.toString();
    case "function":
      return `[Function ${(value as { name?: string }).name || "anonymous"}]`;
    case "symbol":
      return value.description ?? "Symbol()";
    case "undefined":
      return undefined;
  }
  if (value === null) return null;
  const object = value as object;
  if (ancestors.has(object)) return "[Circular]";
  if (ancestors.size >= MAX_COPY_DEPTH) return TOO_DEEP;
  ancestors.add(object);
  try {
    return copyObject(object, ancestors);
  } catch (error) {
    // A Proxy whose traps throw, a revoked Proxy: what it did is all that can be kept.
    return `[Threw: ${threw(error)}]`;
  } finally {
    ancestors.delete(object);
  }
}

function threw(error: unknown): string {
  try {
    return error instanceof Error ? error.message.slice(0, 200) : String(error).slice(0, 200);
  } catch {
    return "an error";
  }
}

function copyObject(object: object, ancestors: Set<object>): unknown {
  const toJSON = (object as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === "function") return copy(toJSON.call(object), ancestors);
  if (Array.isArray(object)) return object.map((item) => copy(item, ancestors) ?? null);
  if (object instanceof Map) {
    const entries = [...object.entries()];
    if (entries.every(([key]) => typeof key === "string")) return copyEntries(entries as [string, unknown][], ancestors);
    return entries.map(([key, item]) => [copy(key, ancestors) ?? null, copy(item, ancestors) ?? null]);
  }
  if (object instanceof Set) return [...object].map((item) => copy(item, ancestors) ?? null);
  if (object instanceof Error) return { name: object.name, message: object.message };
  if (ArrayBuffer.isView(object)) return `[${object.constructor.name} ${object.byteLength} bytes]`;
  const entries: [string, unknown][] = [];
  for (const key of Object.keys(object)) {
    let item: unknown;
    try {
      item = (object as Record<string, unknown>)[key];
    } catch (error) {
      item = `[Threw: ${threw(error)}]`;
    }
    entries.push([key, item]);
  }
  return copyEntries(entries, ancestors);
}

function copyEntries(entries: readonly [string, unknown][], ancestors: Set<object>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, item] of entries) {
    const copied = copy(item, ancestors);
    if (copied !== undefined) Object.defineProperty(result, key, { value: copied, enumerable: true, writable: true, configurable: true });
  }
  return result;
}
