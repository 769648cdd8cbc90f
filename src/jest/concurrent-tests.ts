import { runInScope, TestScope } from "../lifecycle/scope.js";

type Callable = (this: unknown, ...args: unknown[]) => unknown;

/**
 * Jest runs no `beforeEach`/`afterEach` around a `test.concurrent` test's function (it starts them all before
 * its hooks), so the setup's per-test scope never covers one. This gives each concurrent test's function a scope
 * of its own as its async context, and calls `finish` when the function settles (after a throw too, whose error
 * wins); `finish` throws to fail the test. Every form is covered: `.only`, `.skip`, `.failing`, `.each`.
 * `declared` runs as each is declared, while Jest still lets the file load modules.
 */
export function scopeConcurrentTests(
  test: { concurrent?: unknown },
  finish: (scope: TestScope, title: string) => void | Promise<void>,
  declared: () => void,
): void {
  if (typeof test.concurrent !== "function") return;
  const body = (title: string, fn: Callable): Callable =>
    async function (this: unknown, ...args: unknown[]) {
      const scope = new TestScope(title);
      let result: unknown;
      try {
        result = await runInScope(scope, () => fn.apply(this, args));
      } catch (error) {
        // The test's own error wins over what closing its scope would say (`finish` may throw at once).
        try {
          await finish(scope, title);
        } catch {}
        throw error;
      }
      await finish(scope, title);
      return result;
    };
  const wrapped = (target: Callable): Callable =>
    new Proxy(target, {
      apply(fn, self, args: unknown[]) {
        declared();
        const [title, testFn, ...rest] = args;
        const called = typeof testFn === "function" ? [title, body(String(title), testFn as Callable), ...rest] : args;
        const result: unknown = Reflect.apply(fn, self, called);
        // `.each(table)` gives the function that takes the test.
        return typeof result === "function" ? wrapped(result as Callable) : result;
      },
      get(fn, key, receiver) {
        const value: unknown = Reflect.get(fn, key, receiver);
        return typeof value === "function" && key !== "prototype" ? wrapped(value as Callable) : value;
      },
    });
  test.concurrent = wrapped(test.concurrent as Callable);
}
