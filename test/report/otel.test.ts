import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, test } from "vitest";
import { tooltrace } from "tooltrace/vitest";
import { packageFile } from "../fixtures/versions.js";

interface OtlpSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes?: { key: string; value: Record<string, unknown> }[];
}
interface OtlpRequest {
  resourceSpans: { resource: { attributes: { key: string; value: { stringValue?: string } }[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
}

/** A local OTLP/HTTP receiver on 127.0.0.1 that decodes every export it receives. */
let receiver: Server;
let url: string;
const received: OtlpRequest[] = [];
beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      if (request.url === "/v1/traces") received.push(JSON.parse(body) as OtlpRequest);
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/v1/traces`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

const value = (span: OtlpSpan, key: string) => {
  const found = span.attributes?.find((attribute) => attribute.key === key)?.value;
  return found === undefined ? undefined : (Object.values(found)[0] as unknown);
};

/** The OpenTelemetry JS SDK 3 needs Node 22.15: below it `otel` is refused, naming the floor. */
const otelRuns = (() => {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  return major > 22 || (major === 22 && minor >= 15);
})();

test.skipIf(otelRuns)("below Node 22.15, tooltrace({ otel }) is refused at config time, saying where it works", () => {
  expect(() => tooltrace({ otel: true })).toThrow(
    /needs Node 22\.15 or later, and this is Node \d+\.\d+\.\d+[\s\S]*Fix: run the reporting job on Node 22\.15 or later/,
  );
});

test.runIf(otelRuns)(
  "tooltrace({ otel }) sends each turn as spans with the GenAI semantic conventions, through the OTLP/HTTP exporter",
  {
    timeout: 60_000,
  },
  async () => {
    await promisify(execFile)(
      process.execPath,
      [packageFile("vitest", "vitest.mjs"), "run", "--config", join(import.meta.dirname, "../fixtures/plugin-project/vitest.config.ts")],
      { cwd: mkdtempSync(join(tmpdir(), "tooltrace-otel-")), env: { ...process.env, CI: "1", FIXTURE_OTLP: url } },
    ).catch(() => undefined);
    const resources = received.flatMap((request) => request.resourceSpans);
    expect(resources[0]?.resource.attributes).toContainEqual({ key: "service.name", value: { stringValue: "plugin-fixture" } });
    const spans = resources.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans));
    const turn = spans.find((span) => span.name === "invoke_agent concurrent-one");
    expect(turn && value(turn, "gen_ai.operation.name")).toBe("invoke_agent");
    const tool = spans.find((span) => span.parentSpanId === turn?.spanId && span.name === "execute_tool list_tasks");
    expect(tool && value(tool, "gen_ai.operation.name")).toBe("execute_tool");
    expect(tool && value(tool, "gen_ai.tool.name")).toBe("list_tasks");
    expect(tool && value(tool, "tooltrace.answered_by")).toBe("stub");
    const root = spans.find((span) => span.spanId === turn?.parentSpanId);
    expect(root?.name).toContain("concurrent one records its own turns");
    expect(tool?.traceId).toBe(root?.traceId);
  },
);
