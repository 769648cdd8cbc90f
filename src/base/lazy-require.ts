import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const loaders = new Set<() => unknown>();

/**
 * Loads a CommonJS dependency the first time it is needed, synchronously. For the heavy ones (ajv, the RE2
 * engine, the regex parser) that most test files never need: Vitest imports tooltrace again for every test
 * file, and loading them up front cost each file tens of milliseconds.
 */
export function lazyRequire<T>(id: string): () => T {
  let loaded: T | undefined;
  const load = () => (loaded ??= require(id) as T);
  loaders.add(load);
  return load;
}

/** `node:http`, loaded where it is first needed: importing tooltrace does not load it (an MCP server, the HTTP catcher). */
export const lazyNodeHttp = lazyRequire<typeof import("node:http")>("node:http");

/**
 * Loads now every dependency {@link lazyRequire} would load later. Jest 30 refuses a `require` made while no test
 * or hook of its own runs, which is when a `test.concurrent` test may first need one: a Jest test file that
 * declares such a test loads them while it still may. One that fails to load fails again where it is needed,
 * with that feature's own message.
 */
export function loadLazyDependencies(): void {
  for (const load of loaders) {
    try {
      load();
    } catch {}
  }
}
