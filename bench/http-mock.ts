import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { httpCatcher } from "tooltrace/msw";
import { createSession } from "tooltrace";
import { formatNs, interleaved, ratioWithSpread, withSpread } from "./stats.js";

const REQUESTS_PER_SAMPLE = 200;
const SAMPLES = 30;
const URL_ = "https://api.weather.test/v1/reports";
const body = JSON.stringify({ city: "Paris", note: "sunny" });

async function requests(): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < REQUESTS_PER_SAMPLE; i++) {
    const response = await fetch(URL_, { method: "POST", headers: { "content-type": "application/json" }, body });
    const json = (await response.json()) as { id?: number };
    if (json.id !== 7) throw new Error("unexpected response");
  }
  return Number(process.hrtime.bigint() - started) / REQUESTS_PER_SAMPLE;
}

async function requestsInSession(): Promise<number> {
  let ns = 0;
  const session = createSession({
    tools: {},
    http: [
      {
        id: "reports",
        method: "POST",
        url: URL_,
        match: { body: { properties: { city: { const: "Paris" } } } },
        outcome: { status: 201, json: { id: 7 } },
      },
    ],
    agent: async () => ((ns = await requests()), ""),
  });
  const turn = await session.send("go");
  if (turn.httpCalls.length !== REQUESTS_PER_SAMPLE) throw new Error("the session did not record every request");
  session.close();
  return ns;
}

/** An HTTP mock answered through the pipeline (catch-all handler, request view, chain, mock step, log) against a bare MSW handler that parses the body. */
export async function httpMock() {
  const server = setupServer();
  server.listen({ onUnhandledRequest: "error" });
  const ours = [httpCatcher()];
  const bare = [
    http.post(URL_, async ({ request }) => {
      const parsed = (await request.json()) as { city?: string };
      if (parsed.city !== "Paris") throw new Error("no city");
      return HttpResponse.json({ id: 7 }, { status: 201 });
    }),
  ];
  try {
    return await interleaved(SAMPLES, 4, async (mine) => {
      server.resetHandlers(...(mine ? ours : bare));
      return mine ? requestsInSession() : requests();
    });
  } finally {
    server.close();
  }
}

export function reportHttpMock(result: Awaited<ReturnType<typeof httpMock>>): string {
  return [
    `HTTP mock answered through the pipeline, in a session:     median ${withSpread(result.ours, formatNs)} per request`,
    `bare MSW handler that parses the body (baseline):          median ${withSpread(result.baseline, formatNs)} per request`,
    `ratio: ${ratioWithSpread(result.ours, result.baseline)}`,
  ].join("\n");
}
