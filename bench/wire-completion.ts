import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { createSession } from "tooltrace";
import { llmWire } from "tooltrace/msw";
import { formatNs, interleaved, ratioWithSpread, withSpread } from "./stats.js";

const REQUESTS_PER_SAMPLE = 200;
const SAMPLES = 30;
const URL_ = "https://api.openai.com/v1/chat/completions";
const body = JSON.stringify({
  model: "gpt-4o-mini",
  messages: [
    { role: "system", content: "You manage tasks." },
    { role: "user", content: "What tasks do I have?" },
  ],
  tools: [
    { type: "function", function: { name: "list_tasks", description: "List tasks.", parameters: { type: "object", properties: {} } } },
  ],
});

async function requests(): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < REQUESTS_PER_SAMPLE; i++) {
    const response = await fetch(URL_, { method: "POST", headers: { "content-type": "application/json" }, body });
    const json = (await response.json()) as { choices: { message: { content: string } }[] };
    if (json.choices[0]?.message.content !== "You have 2 tasks.") throw new Error("unexpected completion");
  }
  return Number(process.hrtime.bigint() - started) / REQUESTS_PER_SAMPLE;
}

/** The requests made by an agent inside a session's turn, so each is attributed, run through the chain and recorded. */
async function requestsInSession(): Promise<number> {
  let ns = 0;
  const session = createSession({ agent: async () => ((ns = await requests()), "") });
  const turn = await session.send("go");
  if (turn.modelCalls.length !== REQUESTS_PER_SAMPLE) throw new Error("the session did not record every request");
  session.close();
  return ns;
}

/**
 * A chat completion through the wire mock (decode the request, run the responder, encode the provider's
 * JSON) against a bare MSW handler that returns the same bytes.
 */
export async function wireCompletion() {
  const wire = llmWire({ respond: { text: "You have 2 tasks.", usage: { inputTokens: 20, outputTokens: 5 } } });
  const server = setupServer();
  server.listen({ onUnhandledRequest: "error" });
  try {
    server.resetHandlers(...wire.handlers);
    const sample = await (await fetch(URL_, { method: "POST", body })).text();
    // The baseline reads and parses the body, as any handler that looks at the request must.
    const bare = [
      http.post(URL_, async ({ request }) => {
        const parsed = (await request.json()) as { model?: string };
        if (parsed.model === undefined) throw new Error("no model");
        return new HttpResponse(sample, { headers: { "content-type": "application/json" } });
      }),
    ];
    return await interleaved(SAMPLES, 4, async (mine) => {
      server.resetHandlers(...(mine ? wire.handlers : bare));
      return mine ? requestsInSession() : requests();
    });
  } finally {
    server.close();
  }
}

export function reportWireCompletion(result: Awaited<ReturnType<typeof wireCompletion>>): string {
  return [
    `chat completion through the wire mock, in a session:           median ${withSpread(result.ours, formatNs)} per request`,
    `same bytes from a bare MSW handler that parses the body (baseline): median ${withSpread(result.baseline, formatNs)} per request`,
    `ratio: ${ratioWithSpread(result.ours, result.baseline)}`,
  ].join("\n");
}
