export type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;

/** A function property replaced in place, and how to put back what the owner should hold. */
export interface Patch {
  /** The function the property held (for a getter, the one it returned when patched). */
  readonly original: AnyFunction;
  restore(): void;
}

/** Why a property cannot be patched, and what to pass instead; the caller names the tool and its place. */
export class PatchRefused extends Error {
  constructor(
    readonly problem: string,
    readonly fix: string,
  ) {
    super(problem);
  }
}

/**
 * Replaces the function at `owner[key]` with what `wrap` makes of it, in place, so code that already holds
 * `owner` calls the wrapper. The property may be the owner's own or inherited (a class's method), a value or
 * a getter. It becomes an accessor for as long as it is patched: a function assigned to it later (the tool
 * replaced after the session was created) is what the wrapper calls from then on, so it is caught too.
 * `restore` puts back exactly what was there, or what was assigned since (an inherited property is deleted
 * again, so the prototype's shows through).
 */
export function patchFunction(owner: object, key: string, wrap: (target: () => AnyFunction) => AnyFunction): Patch {
  const own = Object.getOwnPropertyDescriptor(owner, key);
  const found = own ?? inherited(owner, key);
  if (found === undefined) throw new PatchRefused(`has no \`${key}\``, "pass an object whose executor tooltrace can patch");
  if (own !== undefined ? !own.configurable : !Object.isExtensible(owner)) {
    throw new PatchRefused(
      `cannot be caught: its \`${key}\` cannot be replaced (the object is frozen, sealed or the property is not configurable)`,
      "pass the tools before freezing them, or a record of the functions the frozen tool calls",
    );
  }
  const original = (found.get ? found.get.call(owner) : found.value) as unknown;
  if (typeof original !== "function") throw new PatchRefused(`has a \`${key}\` that is not a function`, "pass a function");
  let current: unknown = original;
  let assigned = false;
  const wrapped = wrap(() => current as AnyFunction);
  const enumerable = own?.enumerable ?? false;
  Object.defineProperty(owner, key, {
    get: () => (typeof current === "function" ? wrapped : current),
    set: (value: unknown) => {
      current = value;
      assigned = true;
    },
    configurable: true,
    enumerable,
  });
  return {
    original: original as AnyFunction,
    restore: () => {
      if (assigned) Object.defineProperty(owner, key, { value: current, writable: true, configurable: true, enumerable });
      else if (own !== undefined) Object.defineProperty(owner, key, own);
      else delete (owner as Record<string, unknown>)[key];
    },
  };
}

function inherited(owner: object, key: string): PropertyDescriptor | undefined {
  for (let proto = Object.getPrototypeOf(owner) as object | null; proto !== null; proto = Object.getPrototypeOf(proto) as object | null) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, key);
    if (descriptor !== undefined) return descriptor;
  }
  return undefined;
}
