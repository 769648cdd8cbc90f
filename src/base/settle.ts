/** True for promises and other thenables. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null && (typeof value === "object" || typeof value === "function") && typeof (value as { then?: unknown }).then === "function"
  );
}

/**
 * Runs `fn` and hands what it produced to `done`, or what it threw to `failed`: at once when `fn` answered
 * synchronously, once its promise settles otherwise. The one place tooltrace decides whether a call is
 * synchronous, so a synchronous tool stays synchronous through every layer.
 */
export function settle<T>(fn: () => unknown, done: (value: unknown) => T, failed: (error: unknown) => T): T | Promise<T> {
  let result: unknown;
  try {
    result = fn();
  } catch (error) {
    return failed(error);
  }
  return isThenable(result) ? Promise.resolve(result).then(done, failed) : done(result);
}

/** Rethrows inside {@link settle}'s `failed`, typed for it. */
export function rethrow(error: unknown): never {
  throw error;
}
