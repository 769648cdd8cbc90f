import { isAbsolute, join, resolve } from "node:path";
import { githubSummaryReporter } from "../report/github-summary.js";
import { plainMessagesReporter } from "../report/plain-messages-reporter.js";
import { checkOtelNode } from "../report/otel-export.js";
import { TooltraceReporter } from "../report/report-reporter.js";
import { packageRoot, runsFromBuild } from "../base/package-root.js";
import { compileHttpMocks } from "../http-mocks/validate-http-mock.js";
import type { TooltracePluginOptions } from "./options.js";
import { cassetteWatchTrigger, type WatchedVitest, type WatchTrigger } from "./cassette-watch.js";
import { lateCallReporter } from "./late-call-reporter.js";
import { releaseRunClaims } from "../cassettes/file-lock.js";
import { usageError } from "../exits/errors.js";
import { checkRunOptions } from "../session/run-options.js";
import { YAML_EVAL_PATTERN, yamlEvalModule } from "../evals/yaml-module.js";
import { readsMeta } from "./reads-meta.js";
import { inlineLibrary } from "./inline-libraries.js";
import { checkConcurrency } from "../variants/concurrency.js";
import { checkPrices } from "../trace/cost.js";
import { hasInFlightLimits, setProviderLimits } from "../base/provider-limits.js";
import { startRunLimiter } from "../base/provider-gate.js";
import { limitsReporter } from "../report/limits-reporter.js";

/** The part of a Vite plugin that `tooltrace()` fills in (kept structural so Vite's types are not a dependency). */
export interface TooltraceVitePlugin {
  readonly name: string;
  /** Before Vite's own plugins, so a YAML eval file is loaded as the module that declares its tests. */
  readonly enforce: "pre";
  load(id: string): string | undefined;
  /**
   * `tooltrace` and its other bridged entries, to their CommonJS build (see `cjs-bridges.ts`); an agent
   * library the test's code imports, to the library with its inline tools caught (see `inline-libraries.ts`).
   */
  resolveId(id: string, importer?: string): string | undefined;
  /**
   * Vite's `config` hook, ordered first: Vitest 5 copies the test options its inline projects inherit
   * (`projects: [{ extends: true }]`) before the other plugins' hooks run, which would leave them without
   * tooltrace's setup file.
   */
  readonly config: {
    readonly order: "pre";
    handler(config?: { root?: string; test?: { include?: unknown; root?: string; setupFiles?: string | string[]; projects?: unknown } }): {
      test: {
        include: string[];
        setupFiles?: string[];
        provide: { tooltrace: TooltracePluginOptions };
        watchTriggerPatterns: WatchTrigger[];
      };
    };
  };
  /** Vitest hands the plugin its instance: the watch trigger reads which tests replayed which cassette; a reporter is added. */
  configureVitest(context: {
    project?: { provide?(key: "tooltrace", value: TooltracePluginOptions): void };
    vitest: WatchedVitest & {
      readonly config?: {
        readonly reporters?: unknown[];
        readonly sequence?: { readonly concurrent?: boolean };
        readonly watch?: boolean;
      };
    };
  }): void | Promise<void>;
}

/** Eval files, found beside test files: `todo.eval.ts`. */
export const EVAL_PATTERN = "**/*.eval.?(c|m)[jt]s?(x)";
/** Vitest's own default `include`, kept when the plugin adds the eval pattern to a config that set none. */
const VITEST_DEFAULT_INCLUDE = "**/*.{test,spec}.?(c|m)[jt]s?(x)";

/**
 * The Vitest plugin: registers tooltrace's matchers and after-test checks by adding one setup file after
 * yours. Your include patterns, setup files and timeouts stay as you set them.
 *
 * @example
 * ```ts
 * // vitest.config.ts
 * import { defineConfig } from "vitest/config";
 * import { tooltrace } from "tooltrace/vitest";
 * export default defineConfig({ plugins: [tooltrace({ unusedRules: "error" })] });
 * ```
 */
export function tooltrace(options: TooltracePluginOptions = {}): TooltraceVitePlugin {
  checkRunOptions(options);
  if (options.llm !== undefined && typeof options.llm !== "boolean" && (options.llm === null || typeof options.llm !== "object")) {
    throw usageError("tooltrace({ llm }): pass true, or { baseUrls?, models? }.");
  }
  if (typeof options.llm === "object" && (options.llm as { onUnhandledRequest?: unknown }).onUnhandledRequest !== undefined) {
    throw usageError(
      "tooltrace({ llm: { onUnhandledRequest } }) is gone: the run is hermetic (a request beyond this machine is refused, naming it), and the wire mock starts no MSW server.",
      "drop `onUnhandledRequest`; let hosts out with `allowHosts`, or start MSW yourself (`startLlmServer()` from tooltrace/msw) for a client on node:http.",
    );
  }
  const middleware =
    options.middleware === undefined ? [] : typeof options.middleware === "string" ? [options.middleware] : options.middleware;
  if (!Array.isArray(middleware) || middleware.some((path) => typeof path !== "string" || path === "")) {
    throw usageError(
      'tooltrace({ middleware }): pass the path of a module whose default export is the middleware, e.g. "./test/eval-middleware.ts", or an array of paths.',
    );
  }
  if (options.http !== undefined) compileHttpMocks(options.http);
  checkPrices(options.prices, "tooltrace({ prices })");
  if (options.trials?.concurrency !== undefined) checkConcurrency(options.trials.concurrency, "tooltrace({ trials: { concurrency } })");
  if (options.otel) checkOtelNode();
  const setupFiles = [runtimePath("setup"), ...(options.llm ? [runtimePath("llm-setup")] : [])];
  let vitest: WatchedVitest | undefined;
  let root = process.cwd();
  const watchTriggerPatterns = [cassetteWatchTrigger(() => vitest)];
  // What the workers get; the run's `sequence.concurrent` is added once Vitest has resolved its config.
  const provided: Omit<TooltracePluginOptions, "meta"> & { concurrent?: boolean; verbose?: boolean; meta?: boolean; limiter?: string } = {
    ...options,
  };
  const limited = hasInFlightLimits(options.providers);
  return {
    name: "tooltrace",
    enforce: "pre",
    resolveId: (id, importer) => (id.startsWith("tooltrace") ? undefined : inlineLibrary(id, importer)),
    load: (id) => (/\.eval\.ya?ml$/.test(id) ? yamlEvalModule(id, root, runtimePath("yaml-evals"), options.evals ?? {}) : undefined),
    configureVitest: async (context) => {
      vitest = context.vitest;
      // One limit per provider for the whole run: this process hosts it, the workers ask it for their slots.
      setProviderLimits(options.providers);
      if (limited) provided.limiter ??= await startRunLimiter();
      if (context.vitest.config?.sequence?.concurrent === true) provided.concurrent = true;
      // A verbose reporter asks for what passed too (trials print their table).
      if ((context.vitest.config?.reporters ?? []).some((reporter) => (Array.isArray(reporter) ? reporter[0] : reporter) === "verbose"))
        provided.verbose = true;
      // Whether any reporter may read the tests' sessions: the user's, before tooltrace adds its own.
      provided.meta ??= readsMeta(context.vitest.config?.reporters ?? [], options, context.vitest.config?.watch === true);
      // Runs before Vitest creates its reporters: the late-call reporter joins the user's.
      context.vitest.config?.reporters?.push(lateCallReporter());
      // The run's claims on the cassettes it records (lock files in the temporary folder) end with it.
      context.vitest.config?.reporters?.push({ onTestRunEnd: () => releaseRunClaims() });
      if (limited) context.vitest.config?.reporters?.push(limitsReporter());
      const reportOptions = options.report === true || !options.report ? {} : options.report;
      if (options.report || options.otel)
        context.vitest.config?.reporters?.push(
          new TooltraceReporter({ ...reportOptions, ...(options.otel ? { otel: options.otel } : {}) }),
        );
      else if (process.env.GITHUB_ACTIONS === "true") context.vitest.config?.reporters?.push(githubSummaryReporter());
      const reporters = context.vitest.config?.reporters ?? [];
      const named = (name: string) => reporters.some((reporter) => (Array.isArray(reporter) ? reporter[0] : reporter) === name);
      // On GitHub Actions, annotations at the failing assertions whatever reporters the config names (Vitest
      // adds its own only when it names none).
      if (process.env.GITHUB_ACTIONS === "true" && !named("github-actions")) reporters.push(["github-actions", {}]);
      // JUnit: messages without colours, and each failing eval's conversation as its test case's system-out.
      if (named("junit")) reporters.unshift(plainMessagesReporter());
      // The project took its copy of `provide` when it resolved its config: what was learnt here goes in again.
      context.project?.provide?.("tooltrace", { ...provided });
    },
    // Vite merges a plugin's config into the user's by concatenating arrays: with no `include` of the user's,
    // the eval pattern joins Vitest's default; an explicit `include` is left as the user wrote it. A config that
    // declares `projects` is left alone too: its projects inherit its patterns and add their own to them.
    config: {
      order: "pre",
      handler: (config) => {
        root = config?.test?.root ?? config?.root ?? process.cwd();
        // Before the user's setup files (Vite would append a returned list): the guards go in before any of the
        // test's code runs, so a function a module takes from `node:child_process` is already guarded.
        if (config !== undefined) {
          const own = config.test?.setupFiles;
          config.test = { ...config.test, setupFiles: [...setupFiles, ...(own === undefined ? [] : Array.isArray(own) ? own : [own])] };
        }
        return {
          test: {
            ...(config === undefined ? { setupFiles } : {}),
            watchTriggerPatterns,
            include:
              config?.test?.include === undefined && config?.test?.projects === undefined
                ? [VITEST_DEFAULT_INCLUDE, EVAL_PATTERN, YAML_EVAL_PATTERN]
                : [],
            provide: {
              tooltrace: Object.assign(provided, {
                middleware: middleware.map((path) => (isAbsolute(path) ? path : resolve(root, path))),
              }),
            },
          },
        };
      },
    },
  };
}

/** A module the plugin hands Vitest: built in `dist/vitest-<name>.js`, or `src/vitest/<name>.ts` in tooltrace's own tests. */
function runtimePath(name: "setup" | "llm-setup" | "yaml-evals"): string {
  return runsFromBuild() ? join(packageRoot(), "dist", `vitest-${name}.js`) : join(packageRoot(), "src", "vitest", `${name}.ts`);
}
