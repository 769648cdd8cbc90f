// Type tests: `npm run typecheck` compiles this file. The adapter's wrappers take what the frameworks give,
// typed structurally (importing tooltrace/server never needs hono or express); the @ts-expect-error lines
// fail the compile if a wrapper stops refusing what it cannot serve.
import type { IncomingMessage, ServerResponse } from "node:http";
import express from "express";
import { Hono } from "hono";
import { remoteAgent, type TooltraceServer } from "tooltrace/server";
import type { Agent } from "tooltrace";

declare const traced: TooltraceServer;

new Hono().use("/chat", traced.hono());
express().use("/chat", traced.express());
const node = traced.node((request: IncomingMessage, response: ServerResponse) => response.end(request.url));
node satisfies (request: IncomingMessage, response: ServerResponse) => unknown;

// A route handler taking a subclass of Request (Next.js's NextRequest) fits, and keeps its own type.
class NextRequestLike extends Request {
  readonly nextUrl = new URL(this.url);
}
const route = traced.fetch(
  async (request: NextRequestLike, _context: { params: Promise<{ id: string }> }) => new Response(request.nextUrl.pathname),
);
route satisfies (request: NextRequestLike, context: { params: Promise<{ id: string }> }) => Promise<Response>;
// @ts-expect-error a route handler takes a Request
traced.fetch(async (count: number) => new Response(String(count)));
// @ts-expect-error a route handler answers a Response
traced.fetch(async (_request: Request) => "text");
// @ts-expect-error a model has doGenerate and doStream
traced.model({ provider: "p", modelId: "m" });

remoteAgent({ url: "http://127.0.0.1:1/chat" }) satisfies Agent<{ role: "user" | "assistant"; content: string }>;
