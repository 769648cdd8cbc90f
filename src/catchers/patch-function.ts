import { usageError } from "../base/errors.js";

export type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;

/** A function property replaced in place, and how to put the original back. */
export interface Patch {
  /** The function the property held (for a getter, the one it returned when patched). */
  readonly original: AnyFunction;
  restore(): void;
}

/**
 * Replaces the function at `owner[key]` with what `wrap` makes of it, in place, so code that already holds
 * `owner` calls the wrapper. The property may be the owner's own or inherited (a class's method), a value or
 * a getter; `restore` puts back exactly what was there (an inherited property is deleted again, so the
 * prototype's shows through). The wrapper is a plain function: nothing is recorded, and the agent's
 * framework sees a function of the ordinary shape.
 */
export function patchFunction(owner: object, key: string, label: string, wrap: (original: AnyFunction) => AnyFunction): Patch {
  const own = Object.getOwnPropertyDescriptor(owner, key);
  const found = own ?? inherited(owner, key);
  if (found === undefined) throw usageError(`cannot patch the executor of tool "${label}": it has no \`${key}\`.`);
  if (own !== undefined && !own.configurable && !own.writable) {
    throw usageError(
      `cannot patch the executor of tool "${label}": the property \`${key}\` is read-only (is the tools object frozen?).`,
      "pass tools whose executors can be replaced.",
    );
  }
  const original = (found.get ? found.get.call(owner) : found.value) as AnyFunction;
  if (typeof original !== "function") throw usageError(`cannot patch the executor of tool "${label}": \`${key}\` is not a function.`);
  const wrapped = wrap(original);
  Object.defineProperty(owner, key, { value: wrapped, writable: true, configurable: true, enumerable: own?.enumerable ?? false });
  return {
    original,
    restore: () => {
      if (own !== undefined) Object.defineProperty(owner, key, own);
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
