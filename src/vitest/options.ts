import type { CassetteMode } from "../cassettes/types.js";
import type { HttpMock } from "../http-mocks/types.js";
import type { UnusedRulesPolicy } from "../session/types.js";
import type { Prices } from "../trace/cost.js";
import type { YamlEvalsOptions } from "../evals/yaml-module.js";
import type { ProviderLimits } from "../base/provider-limits.js";

/** The run's wire mock (see {@link TooltracePluginOptions.llm}). */
export interface PluginLlmOptions {
  /** More base URLs to answer at, beside the providers' own (a gateway, a local server, an Azure deployment). */
  readonly baseUrls?: readonly string[];
  /** The models that exist; any other gets the provider's 404. */
  readonly models?: readonly string[];
}

/** Options of the `tooltrace()` Vitest plugin. They travel to the test workers, so they are plain JSON. */
export interface TooltracePluginOptions {
  /** What to do after a test whose sessions left stub rules unused. Default `warn`. */
  readonly unusedRules?: UnusedRulesPolicy;
  /**
   * Answer every LLM API request of the run with a mock model, in a session or not: a session's own `llm`
   * (`createSession({ llm })`), else "Mock response". Without it, a session's `llm` is answered anyway and a
   * request no session scripts is refused. Caught under `fetch` (SDK clients made at import time too), with
   * no MSW; a client on `node:http` needs `startLlmServer()` from tooltrace/msw. `true` for the defaults.
   */
  readonly llm?: boolean | PluginLlmOptions;
  /**
   * Modules whose default export is the middleware (an array, or one) for every session of the run, before
   * each session's own: paths relative to the project root, e.g. `"./test/eval-middleware.ts"`. Editing one
   * re-runs the tests in watch mode, as any setup file does.
   */
  readonly middleware?: string | readonly string[];
  /** HTTP mocks for every session of the run, before each session's own `http` (string URLs only: the options are JSON). */
  readonly http?: readonly HttpMock[];
  /**
   * Strict mode for every session that does not set `strict` itself (see `useStrict` for one test). The
   * `TOOLTRACE_STRICT=1` environment variable makes every session strict whatever this says: set it in CI.
   */
  readonly strict?: boolean;
  /**
   * Hosts every test of the run may reach (`"api.example.com"`, `"db.internal:5432"`, `"*.corp.example"`):
   * the run is hermetic, and strict sessions refuse more (see the session's `allowHosts`).
   */
  readonly allowHosts?: readonly string[];
  /**
   * Let the run reach the network. By default it is hermetic: nothing leaves the machine (loopback stays
   * open) unless `allowHosts`, a session's `allowHosts`, `upstream` or a recording cassette lets it, and an
   * LLM API request is answered by the session's mock model or refused. `TOOLTRACE_LIVE=1` does the same.
   */
  readonly live?: boolean;
  /** The cassette mode of every session of the run (below `TOOLTRACE_CASSETTE` and a session's own). Default `off`. */
  readonly cassette?: CassetteMode;
  /**
   * Put each test's sessions on `task.meta.tooltrace` for reporters. Default: when a reporter of the run may read
   * it (tooltrace's, JUnit, JSON, blob, HTML, one of your own, GitHub Actions, watch mode); Vitest's terminal
   * reporters alone do not, and a run with only those skips building it. `true` always, `false` never.
   */
  readonly meta?: boolean;
  /**
   * Write the trace viewer after each run: `tooltrace-report/index.html` (or `outputDir`), one page that opens
   * from disk, with every test's conversations and timelines. The same as `reporters: ["default", "tooltrace/reporter"]`.
   * In watch mode it is also served live on 127.0.0.1 (`serve: false` does not; `open: true` opens a browser).
   */
  readonly report?: boolean | { readonly outputDir?: string; readonly serve?: boolean; readonly open?: boolean };
  /**
   * Send every turn as OpenTelemetry spans (GenAI semantic conventions) to an OTLP/HTTP endpoint after each
   * run: `true` for the OpenTelemetry environment (`OTEL_EXPORTER_OTLP_ENDPOINT`), or `{ url, serviceName }`.
   * Needs `@opentelemetry/api`, `@opentelemetry/sdk-trace`, `@opentelemetry/resources` and
   * `@opentelemetry/exporter-trace-otlp-http`. Default off.
   */
  readonly otel?: boolean | { readonly url?: string; readonly serviceName?: string };
  /**
   * YAML evals (`*.eval.yaml`, evalview's schema): the agent module of cases that name none, agent modules by
   * `adapter`, and the variants and seed of each case (`TOOLTRACE_VARIANTS` and `TOOLTRACE_SEED` win).
   */
  readonly evals?: YamlEvalsOptions;
  /**
   * `concurrency`: how many trials of each `trials()` and `variants()` call (and each YAML case's variants) run at
   * once when the call sets none. Default 1, one at a time: raise it for a live model, whose latency then
   * overlaps, within what the provider's rate limit allows. Each trial keeps its own sessions, seed and trace.
   */
  readonly trials?: { readonly concurrency?: number };
  /**
   * What model tokens cost, in USD per million, by model id (`{ "gpt-4o": { input: 2.5, output: 10 } }`): over
   * the shipped table (`MODEL_PRICES`, with the date it was taken), under a session's own `prices`. Calls a
   * real model answered get their `costUsd` from it; a model with no price has no cost (never 0).
   */
  readonly prices?: Prices;
  /**
   * Limits on the real model (a session's `upstream`) for the whole run, by provider (`openai`, `anthropic`,
   * `google`: the API a request speaks) or by one model (`"openai/gpt-4o-mini"`, which wins for that model):
   * at most `maxInFlight` requests in flight per model across every test and worker (the plugin's process
   * hosts the limiter on loopback); a 429 or 529 with `Retry-After` (or `retry-after-ms`) is waited out and
   * sent again, up to `retries` times (default 5), each wait at most `maxWaitMs` (default 60,000). Default: no
   * limit, rate limits waited out. What the calls waited is in the trace (`providerWait`) and the summary.
   */
  readonly providers?: ProviderLimits;
}
