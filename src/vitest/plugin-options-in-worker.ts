import { usageError } from "../exits/errors.js";
import type { Middleware } from "../middleware/types.js";
import { usePrices } from "../trace/cost.js";
import type { TooltracePluginOptions } from "./options.js";
import type { VitestApi } from "./vitest-api.js";

/** The plugin's options as the worker gets them, with what the plugin read of the run's config. */
export interface WorkerOptions extends TooltracePluginOptions {
  /** The run's `sequence.concurrent`: every test may run concurrently. */
  readonly concurrent?: boolean;
  /** A verbose reporter runs. */
  readonly verbose?: boolean;
  /** `127.0.0.1:port` of the run's limiter, which the plugin's process hosts when `providers` sets a `maxInFlight`. */
  readonly limiter?: string;
}

/** The plugin's options, as Vitest hands them to the worker (`{}` outside the plugin). */
export function readOptions(vitest: VitestApi): WorkerOptions {
  try {
    return (vitest.inject("tooltrace") as WorkerOptions | undefined) ?? {};
  } catch {
    return {};
  }
}

/** The test file this setup file runs for (Vitest runs setup files once per test file). */
export function readTestPath(vitest: VitestApi): string | undefined {
  const path = (vitest.expect.getState() as { testPath?: unknown }).testPath;
  return typeof path === "string" ? path : undefined;
}

/**
 * Applies what the options ask of every session, loading each part only when it is asked for. The middleware
 * modules are the user's (`./evals/middleware.ts`): `load` imports them as a test file would, through Vitest's
 * module runner (Node's own `import()`, from the built package, cannot load TypeScript).
 */
export async function applySharedOptions(options: TooltracePluginOptions, load: (path: string) => Promise<unknown>): Promise<void> {
  const paths = typeof options.middleware === "string" ? [options.middleware] : (options.middleware ?? []);
  if (paths.length > 0) {
    const { useMiddleware } = await import("../middleware/shared-middleware.js");
    useMiddleware(await loadMiddleware(paths, load));
  }
  if (options.prices !== undefined) usePrices(options.prices);
  if (options.http !== undefined) {
    const { useHttpMocks } = await import("../http-mocks/shared-http-mocks.js");
    useHttpMocks(options.http);
  }
}

/** The middleware the plugin's `middleware` modules export by default (an array, or one). */
async function loadMiddleware(paths: readonly string[], load: (path: string) => Promise<unknown>): Promise<Middleware[]> {
  const lists = await Promise.all(
    paths.map(async (path) => {
      const exported = ((await load(path)) as { default?: unknown }).default;
      if (exported === undefined)
        throw usageError(`tooltrace({ middleware }): ${path} has no default export; export default [yourMiddleware].`);
      return (Array.isArray(exported) ? exported : [exported]) as Middleware[];
    }),
  );
  return lists.flat();
}

/** The messages of the errors a test already failed with, and of their causes, as one text. */
export function errorTexts(errors: readonly unknown[] | undefined): string {
  const texts: string[] = [];
  for (const error of errors ?? []) {
    for (let current: unknown = error, depth = 0; current !== null && typeof current === "object" && depth < 5; depth++) {
      const { message, cause } = current as { message?: unknown; cause?: unknown };
      if (typeof message === "string") texts.push(message);
      current = cause;
    }
  }
  return texts.join("\n");
}
