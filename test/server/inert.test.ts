// The "the server behaves exactly as without the adapter when no secret is set": every wrapper gives
// back what it was given, nothing is patched, and Hono and Express apps with the inert middleware answer the
// same requests with the same status, headers and body as the same apps without it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import express from "express";
import { Hono, type MiddlewareHandler } from "hono";
import { afterEach, expect, test, vi } from "vitest";
import { mockModel } from "tooltrace";
import { TOKEN_HEADER, tooltraceServer } from "tooltrace/server";
import { createTaskService } from "../fixtures/tasks.js";
import { runExecute } from "../fixtures/versions.js";

const servers: Server[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Status, headers (but the date) and body of the same requests: a tool call, a token header, a 404, a cookie. */
async function answers(base: string) {
  const requests: [string, RequestInit][] = [
    ["/chat", { method: "POST", body: '{"message":"hi"}', headers: { "content-type": "application/json" } }],
    ["/chat", { method: "POST", body: '{"message":"hi"}', headers: { "content-type": "application/json", [TOKEN_HEADER]: "tt1.x.y" } }],
    ["/missing", { method: "GET" }],
  ];
  const seen = [];
  for (const [path, init] of requests) {
    const response = await fetch(`${base}${path}`, init);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (name !== "date") headers[name] = value;
    });
    seen.push({ status: response.status, headers, body: await response.text() });
  }
  return seen;
}

test("without a secret the adapter is inert: each wrapper is what it was given, and the tools stay unpatched", () => {
  vi.stubEnv("TOOLTRACE_SECRET", undefined);
  const { tools } = createTaskService();
  const before = Object.getOwnPropertyDescriptor(tools.list_tasks, "execute");
  const traced = tooltraceServer({ tools });
  expect(traced.enabled).toBe(false);
  const node = (_request: IncomingMessage, response: ServerResponse) => response.end("ok");
  const route = async (_request: Request) => new Response("ok");
  const model = mockModel();
  expect(traced.node(node)).toBe(node);
  expect(traced.fetch(route)).toBe(route);
  expect(traced.model(model)).toBe(model);
  expect(Object.getOwnPropertyDescriptor(tools.list_tasks, "execute")).toEqual(before);
  // An empty secret is no secret; a short one is refused, since every token signed with it could be forged.
  expect(tooltraceServer({ tools, secret: "" }).enabled).toBe(false);
  expect(() => tooltraceServer({ tools, secret: "too short" })).toThrow(/at least 32 characters/);
  vi.stubEnv("TOOLTRACE_SECRET", "x".repeat(40));
  const enabled = tooltraceServer({ tools });
  expect(enabled.enabled).toBe(true);
  expect(Object.getOwnPropertyDescriptor(tools.list_tasks, "execute")).not.toEqual(before);
  enabled.close();
  expect(Object.getOwnPropertyDescriptor(tools.list_tasks, "execute")).toEqual(before);
});

test("Hono and Express apps with the inert middleware answer exactly as without it, and their tools run for real", async () => {
  vi.stubEnv("TOOLTRACE_SECRET", undefined);
  const runs: string[] = [];
  const { tools } = createTaskService();
  const traced = tooltraceServer({ tools });
  const honoApp = (middleware: MiddlewareHandler | undefined) => {
    const app = new Hono();
    if (middleware) app.use("/chat", middleware);
    app.post("/chat", async (c) => {
      const { tasks } = (await runExecute(tools.list_tasks, {}, "1")) as { tasks: unknown[] };
      runs.push("hono");
      c.header("set-cookie", "seen=1; Path=/");
      return c.json({ tasks, got: await c.req.json() }, 201);
    });
    return createAdaptorServer({ fetch: app.fetch });
  };
  const expressApp = (middleware: express.RequestHandler | undefined) => {
    const app = express();
    app.use(express.json());
    if (middleware) app.use("/chat", middleware);
    app.post("/chat", async (request, response) => {
      const { tasks } = (await runExecute(tools.list_tasks, {}, "1")) as { tasks: unknown[] };
      runs.push("express");
      response.cookie("seen", "1").status(201).json({ tasks, got: request.body });
    });
    return createServer(app);
  };
  const [honoBare, honoInert, expressBare, expressInert] = await Promise.all([
    listen(honoApp(undefined) as Server),
    listen(honoApp(traced.hono()) as Server),
    listen(expressApp(undefined)),
    listen(expressApp(traced.express())),
  ]);
  const hono = await answers(honoInert);
  expect(hono).toEqual(await answers(honoBare));
  expect(hono.map((answer) => answer.status)).toEqual([201, 201, 404]);
  expect(JSON.parse(hono[1]?.body ?? "")).toEqual({
    tasks: [{ id: "real-1", title: "Real task from the database" }],
    got: { message: "hi" },
  });
  const viaExpress = await answers(expressInert);
  expect(viaExpress).toEqual(await answers(expressBare));
  expect(viaExpress.map((answer) => answer.status)).toEqual([201, 201, 404]);
  // Every request ran the real tool, the one with a token header too: nothing stood in for it.
  expect(runs).toEqual(["hono", "hono", "hono", "hono", "express", "express", "express", "express"]);
});
