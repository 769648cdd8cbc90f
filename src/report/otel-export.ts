import { usageError } from "../exits/errors.js";
import { excerpt } from "../exits/excerpt.js";
import { withPeer } from "../exits/optional-peer.js";
import { outValue } from "../exits/out.js";
import type { TurnJson } from "../trace/turn-json.js";
import type { ReportTest } from "./report-data.js";

/** Where a run's traces go (`tooltrace({ otel })`): an OTLP/HTTP endpoint. */
export interface OtelOptions {
  /** The traces endpoint (`http://127.0.0.1:4318/v1/traces`). Default: the OpenTelemetry environment (`OTEL_EXPORTER_OTLP_ENDPOINT`). */
  readonly url?: string;
  /** `service.name` of the spans. Default `tooltrace`. */
  readonly serviceName?: string;
}

type Json = Record<string, unknown>;

// What tooltrace uses of the OpenTelemetry JS SDK (optional peers, loaded at run time; their types are not needed
// to build tooltrace, so a source install does not pull in packages that need Node 22.15).
type Attributes = Record<string, string | number | boolean>;
type Context = unknown;
interface Span {
  setStatus(status: { code: number; message?: string }): void;
  end(time?: number): void;
}
interface Tracer {
  startSpan(name: string, options: { startTime?: number; attributes?: Attributes }, context?: Context): Span;
}
interface OtelApi {
  readonly trace: { setSpan(context: Context, span: Span): Context };
  readonly ROOT_CONTEXT: Context;
  readonly SpanStatusCode: { readonly ERROR: number };
}
interface OtelSdk {
  TracerProvider: new (options: {
    resource: unknown;
    spanProcessors: unknown[];
  }) => {
    getTracer(name: string): Tracer;
    forceFlush(): Promise<void>;
    shutdown(): Promise<void>;
  };
  BatchSpanProcessor: new (options: { exporter: unknown }) => unknown;
}

/** The OpenTelemetry packages' own floor: the SDK 3.x and its exporter need Node 22.15. */
const NODE_FLOOR = [22, 15] as const;

/** Refuses `otel` on a Node the OpenTelemetry SDK does not run on, with what to do. */
export function checkOtelNode(version: string = process.versions.node): void {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  if (major > NODE_FLOOR[0] || (major === NODE_FLOOR[0] && minor >= NODE_FLOOR[1])) return;
  throw usageError(
    `tooltrace({ otel }) sends spans through the OpenTelemetry JS SDK 3, which needs Node ${NODE_FLOOR.join(".")} or later, and this is Node ${version}.`,
    "run the reporting job on Node 22.15 or later, or drop `otel` (the trace viewer and the JSON reporter work on every Node).",
  );
}

/** Loads an optional peer by name (a name the compiler does not resolve: its types are not needed to build). */
function load<T>(name: string): Promise<T> {
  return import(/* @vite-ignore */ name) as Promise<T>;
}

/** The GenAI semantic conventions' provider name for a wire API (`anthropic.messages` → `anthropic`). */
function providerName(provider: string): string {
  return provider.split(".")[0] ?? provider;
}

/**
 * Sends every test's turns as OpenTelemetry spans, with the GenAI semantic conventions: a span per test,
 * an `invoke_agent` span per turn, `chat <model>` spans for model calls (`gen_ai.request.model`,
 * `gen_ai.usage.*`), `execute_tool <tool>` spans for tool calls (`gen_ai.tool.name`, `gen_ai.tool.call.id`),
 * HTTP spans for the rest, each at the time it happened. Through the OpenTelemetry JS SDK and its OTLP/HTTP
 * exporter (optional peers), so Jaeger, Langfuse or Phoenix show a tooltrace run.
 */
export async function exportToOtlp(reported: readonly ReportTest[], options: OtelOptions = {}): Promise<void> {
  checkOtelNode();
  const tests = outValue("spans", reported);
  const feature = "tooltrace({ otel })";
  const api = await withPeer("@opentelemetry/api", feature, () => load<OtelApi>("@opentelemetry/api"));
  const sdk = await withPeer("@opentelemetry/sdk-trace", feature, () => load<OtelSdk>("@opentelemetry/sdk-trace"));
  const { OTLPTraceExporter } = await withPeer("@opentelemetry/exporter-trace-otlp-http", feature, () =>
    load<{ OTLPTraceExporter: new (options: { url?: string }) => unknown }>("@opentelemetry/exporter-trace-otlp-http"),
  );
  const { resourceFromAttributes } = await withPeer("@opentelemetry/resources", feature, () =>
    load<{ resourceFromAttributes(attributes: Attributes): unknown }>("@opentelemetry/resources"),
  );
  const exporter = new OTLPTraceExporter(options.url !== undefined ? { url: options.url } : {});
  const provider = new sdk.TracerProvider({
    resource: resourceFromAttributes({ "service.name": options.serviceName ?? "tooltrace" }),
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter })],
  });
  const tracer = provider.getTracer("tooltrace");
  const under = (parent: Span): Context => api.trace.setSpan(api.ROOT_CONTEXT, parent);
  for (const test of tests) {
    const turns = (test.meta?.sessions ?? []).flatMap((session) => session.turns.map((turn) => ({ session, turn })));
    if (turns.length === 0) continue;
    const start = Math.min(...turns.map(({ turn }) => turn.startedAt));
    const end = Math.max(...turns.map(({ turn }) => turn.startedAt + (turn.durationMs ?? 0)));
    const cost = test.meta?.cost?.costUsd;
    const attributes = { "test.file": test.file, "test.state": test.state, ...(cost !== undefined ? { [COST]: cost } : {}) };
    const root = tracer.startSpan(test.fullName, { startTime: start, attributes });
    if (test.state === "failed") root.setStatus({ code: api.SpanStatusCode.ERROR, message: excerpt(test.errors[0] ?? "failed", 500) });
    for (const { session, turn } of turns) turnSpans(tracer, under(root), session.name, turn, under, api.SpanStatusCode.ERROR);
    root.end(end);
  }
  await provider.forceFlush();
  await provider.shutdown();
}

function turnSpans(tracer: Tracer, parent: Context, agent: string, turn: TurnJson, under: (span: Span) => Context, error: number): void {
  const end = turn.startedAt + (turn.durationMs ?? 0);
  const span = tracer.startSpan(
    `invoke_agent ${agent}`,
    {
      startTime: turn.startedAt,
      attributes: {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": agent,
        "gen_ai.usage.input_tokens": turn.usage.inputTokens,
        "gen_ai.usage.output_tokens": turn.usage.outputTokens,
        ...(turn.costUsd !== undefined ? { [COST]: turn.costUsd } : {}),
      },
    },
    parent,
  );
  if (turn.status === "failed") span.setStatus({ code: error, message: excerpt(turn.error?.message ?? "failed", 500) });
  for (const call of [...turn.modelCalls, ...turn.toolCalls, ...turn.httpCalls] as unknown as Json[]) {
    const startedAt = Number(call.startedAt);
    const child = tracer.startSpan(spanName(call), { startTime: startedAt, attributes: attributesOf(call) }, under(span));
    if (call.status === "failed" || call.status === "rejected")
      child.setStatus({ code: error, message: excerpt(String((call.error as Json | undefined)?.message ?? call.status), 500) });
    child.end(startedAt + Number(call.durationMs ?? 0));
  }
  span.end(end);
}

/** What a call, turn or test cost in USD (OpenTelemetry's GenAI conventions have no cost attribute yet). */
const COST = "tooltrace.cost_usd";

function spanName(call: Json): string {
  if (call.kind === "model") return `chat ${String(call.model)}`;
  if (call.kind === "tool") return `execute_tool ${String(call.qualifiedName ?? call.tool)}`;
  return `${String(call.method)}`;
}

function attributesOf(call: Json): Attributes {
  const answeredBy = (call.answeredBy as Json | undefined)?.kind;
  const common: Attributes = {
    "tooltrace.status": String(call.status),
    ...(answeredBy ? { "tooltrace.answered_by": String(answeredBy) } : {}),
  };
  if (call.kind === "model") {
    const usage = (call.usage ?? {}) as Json;
    return {
      ...common,
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": providerName(String(call.provider)),
      "gen_ai.request.model": String(call.model),
      "gen_ai.usage.input_tokens": Number(usage.inputTokens ?? 0),
      "gen_ai.usage.output_tokens": Number(usage.outputTokens ?? 0),
      ...(typeof call.costUsd === "number" ? { [COST]: call.costUsd } : {}),
    };
  }
  if (call.kind === "tool")
    return {
      ...common,
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": String(call.qualifiedName ?? call.tool),
      "gen_ai.tool.call.id": String(call.id),
    };
  return {
    ...common,
    "http.request.method": String(call.method),
    "url.full": String(call.url),
    ...(typeof call.statusCode === "number" ? { "http.response.status_code": call.statusCode } : {}),
  };
}
