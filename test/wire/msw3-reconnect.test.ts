import { subscribe, unsubscribe } from "node:diagnostics_channel";
import OpenAI from "openai";
import { expect, test } from "vitest";
import { createSession } from "tooltrace";
import { setupServer } from "msw/node";
import { startLlmServer } from "tooltrace/msw";
import { majorOf } from "../fixtures/versions.js";

/** An agent that streams one completion with the OpenAI SDK and reads it to the end. */
function streamingSession() {
  const client = new OpenAI({ apiKey: "sk-test", maxRetries: 0 });
  return createSession({
    agent: async () => {
      const stream = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }], stream: true });
      let text = "";
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
      return text;
    },
  });
}

/**
 * msw 3 mocks at the socket. The OpenAI SDK aborts a stream once it has read it, and undici then connects again
 * from its pool, a moment later. The wire mock closed right after the turn: that connection met the network (a
 * DNS query for api.openai.com, refused, which failed the test). Under msw 2, which mocks `fetch`, no socket is made.
 */
test("closing the wire mock right after a streamed turn: undici's next connection meets the mock, nothing is refused", async () => {
  const errors: string[] = [];
  const onError = (message: unknown) => void errors.push(String((message as { error?: Error }).error?.message));
  subscribe("undici:request:error", onError);
  const llm = startLlmServer({ respond: "hi" });
  try {
    const session = streamingSession();
    const turn = await session.send("go");
    expect(turn.text).toBe("hi");
    llm.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(errors.filter((error) => error.includes("tooltrace"))).toEqual([]);
  } finally {
    llm.close();
    unsubscribe("undici:request:error", onError);
  }
});

/** Your own msw 3 server is yours to close: docs/troubleshooting.md says to let a turn of the event loop pass first. */
test.skipIf(majorOf("msw") < 3)(
  "your own msw 3 server closed right after a streamed turn: the connection undici makes again is refused; a turn of the event loop later, nothing is",
  async () => {
    for (const wait of [false, true]) {
      const server = setupServer();
      server.listen({ onUnhandledRequest: "bypass" });
      const llm = startLlmServer({ server, respond: "hi" });
      const session = streamingSession();
      expect((await session.send("go")).text).toBe("hi");
      llm.close();
      if (wait) await new Promise((resolve) => setImmediate(resolve));
      server.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(session.takeViolations(), `waited: ${wait}`).toEqual(
        wait ? [] : [expect.stringContaining('a DNS query for "api.openai.com" was made, and tooltrace refused it')],
      );
    }
  },
);
