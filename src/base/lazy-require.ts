import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/**
 * Loads a CommonJS dependency the first time it is needed, synchronously. For the heavy ones (ajv, the RE2
 * engine, the regex parser) that most test files never need: Vitest imports tooltrace again for every test
 * file, and loading them up front cost each file tens of milliseconds.
 */
export function lazyRequire<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(id) as T);
}
