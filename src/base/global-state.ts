const STATE = Symbol.for("tooltrace.state");

/**
 * Process-wide state lives under one `Symbol.for` key, so two copies of tooltrace loaded in one process (the
 * CommonJS build beside the ES one, a linked build beside an installed one) still share spies, contexts and test
 * scopes. One key, not one per value: under Jest each test file's global is a VM context's, on which every new
 * property costs tens of microseconds.
 */
export function globalSingleton<T>(name: string, create: () => T): T {
  const store = globalThis as unknown as Record<symbol, Map<string, unknown> | undefined>;
  let all = store[STATE];
  if (all === undefined) {
    all = new Map();
    store[STATE] = all;
  }
  let value = all.get(name) as T | undefined;
  if (value === undefined) {
    value = create();
    all.set(name, value);
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
