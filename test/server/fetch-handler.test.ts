// A fetch-style route handler (what a Next.js route file exports, or a worker's `fetch`) gated with
// `.fetch()`, served on 127.0.0.1 and driven by a session through `remoteAgent`, all in this process.
import { randomBytes } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createSession } from "tooltrace";
import { remoteAgent, tooltraceServer } from "tooltrace/server";

const secret = randomBytes(32).toString("base64url");
const realRuns: string[] = [];
const tools = {
  weather: async (input: { city: string }) => {
    realRuns.push(input.city);
    return { city: input.city, sky: "real sky" };
  },
};
const traced = tooltraceServer({ tools, secret, log: () => undefined });

/** `POST /api/chat`: the reply streams, and the tool is called only when the client reads that far. */
async function POST(request: Request, _context: { params: Promise<Record<string, string>> }): Promise<Response> {
  const { message } = (await request.json()) as { message: string };
  const encoder = new TextEncoder();
  let step = 0;
  // No queue ahead of the reader (high water mark 0): each part is made when the client asks for it.
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        step += 1;
        if (step === 1) return controller.enqueue(encoder.encode(`${message}: `));
        const { sky } = await tools.weather({ city: "Oslo" });
        controller.enqueue(encoder.encode(sky));
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { headers: { "content-type": "text/plain; charset=utf-8" } });
}

const route = traced.fetch(POST);
let server: Server;
let url: string;
beforeAll(async () => {
  server = createAdaptorServer({ fetch: (request) => route(request, { params: Promise.resolve({}) }) }) as Server;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/chat`;
});
afterAll(() => {
  server.close();
  traced.close();
});

test("the body is read inside the request's context: a tool it calls as it streams is stubbed and traced", async () => {
  const session = createSession({
    agent: remoteAgent({ url, secret }),
    stubs: [{ id: "sunny", tool: "weather", match: { city: { const: "Oslo" } }, outcome: { response: { sky: "stubbed sun" } } }],
    strict: true,
  });
  const turn = await session.send("Weather");
  expect(turn.text).toBe("Weather: stubbed sun");
  expect(turn).toHaveCalledTool("weather", { input: { city: "Oslo" } });
  expect(turn.toolCalls[0]?.answeredBy).toEqual({ kind: "stub", ruleId: "sunny", outcomeIndex: 0 });
  expect(realRuns).toEqual([]);
});

test("the same route without a token streams the real answer, untouched", async () => {
  const response = await fetch(url, { method: "POST", body: JSON.stringify({ message: "Weather" }) });
  expect(await response.text()).toBe("Weather: real sky");
  expect(realRuns).toEqual(["Oslo"]);
});
