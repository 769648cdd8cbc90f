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

/** Adds one to a process-wide count (`counter[field]`); the returned release takes it away, once. */
export function holdCount<K extends string>(counter: Record<K, number>, field: K): () => void {
  counter[field] += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    counter[field] -= 1;
  };
}
