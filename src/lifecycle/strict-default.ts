import { StubConfigError, usageError } from "../exits/errors.js";
import { globalSingleton } from "../base/global-state.js";
import { currentTestScope, type TestScope } from "./scope.js";

const defaults = globalSingleton("strictDefaults", () => ({
  run: undefined as boolean | undefined,
  plugin: undefined as boolean | undefined,
  tests: new WeakMap<TestScope, boolean>(),
}));

/**
 * Strict mode for the sessions that do not set `strict` themselves. Called inside a test (or, on Vitest 4.1
 * and later, its `beforeEach`), it applies to that test's sessions; elsewhere (a setup file), to the whole
 * run, over the plugin's `strict`. `undefined` clears it. The `TOOLTRACE_STRICT=1` environment variable
 * overrides all of it.
 */
export function useStrict(strict: boolean | undefined = true): void {
  if (strict !== undefined && typeof strict !== "boolean")
    throw usageError(`useStrict(strict): expected true, false or undefined, got ${JSON.stringify(strict)}.`);
  const scope = currentTestScope();
  if (scope === undefined) defaults.run = strict;
  else if (strict === undefined) defaults.tests.delete(scope);
  else defaults.tests.set(scope, strict);
}

/** The plugin's `strict` option: the default below everything else (`undefined`: not strict). */
export function setPluginStrict(strict: boolean | undefined): void {
  defaults.plugin = strict;
}

/** `TOOLTRACE_STRICT`: `1`/`true` makes every session strict, whatever it says; unset, empty, `0`, `false` leave it alone. */
export function strictFromEnv(): boolean {
  const value = process.env.TOOLTRACE_STRICT;
  if (value === undefined || value === "" || value === "0" || value === "false") return false;
  if (value === "1" || value === "true") return true;
  throw new StubConfigError(
    { pointer: "" },
    `TOOLTRACE_STRICT=${value} is not understood.`,
    "use TOOLTRACE_STRICT=1 (every session strict, for CI) or leave it unset.",
    "session",
  );
}

/** Where a strict session's strict mode came from (what its refusals name as the switch in force). */
export type StrictSource = "env" | "session" | "test" | "run" | "plugin";

/** Where `resolveStrict(own)` takes strict mode from, when it is on. */
export function strictSource(own: boolean | undefined): StrictSource | undefined {
  if (strictFromEnv()) return "env";
  if (own !== undefined) return own ? "session" : undefined;
  const scope = currentTestScope();
  const test = scope !== undefined ? defaults.tests.get(scope) : undefined;
  if (test !== undefined) return test ? "test" : undefined;
  if (defaults.run !== undefined) return defaults.run ? "run" : undefined;
  return defaults.plugin === true ? "plugin" : undefined;
}

/** `TOOLTRACE_STRICT_ALLOW_TOOLS`: tools every strict session of the run lets run for real (comma-separated names). */
export function strictAllowToolsFromEnv(): string[] {
  return (process.env.TOOLTRACE_STRICT_ALLOW_TOOLS ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
}

/** A session's strict mode: the environment's, else its own, else its test's, else the run's (`useStrict` in a setup file), else the plugin's. */
export function resolveStrict(own: boolean | undefined): boolean {
  if (strictFromEnv()) return true;
  if (own !== undefined) return own === true;
  const scope = currentTestScope();
  return (scope !== undefined ? defaults.tests.get(scope) : undefined) ?? defaults.run ?? defaults.plugin ?? false;
}
