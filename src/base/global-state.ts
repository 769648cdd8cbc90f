/**
 * Process-wide state lives under `Symbol.for` keys, so two copies of tooltrace loaded in one process
 * (a linked build beside an installed one) still share spies, contexts and test scopes.
 */
export function globalSingleton<T>(name: string, create: () => T): T {
  const key = Symbol.for(`tooltrace.${name}`);
  const store = globalThis as unknown as Record<symbol, T | undefined>;
  let value = store[key];
  if (value === undefined) {
    value = create();
    store[key] = value;
  }
  return value;
}
