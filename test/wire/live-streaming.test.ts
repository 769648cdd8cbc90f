import { createServer, type Server } from "node:http";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession } from "tooltrace";
import { type LlmServer, startLlmServer } from "tooltrace/msw";

/** A provider on 127.0.0.1 that streams a chat completion slowly: a first chunk, a pause, the rest. */
let provider: Server;
let url: string;
let lastWrite = 0;
beforeAll(async () => {
  provider = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const chunk = (delta: object, finish: string | null = null) =>
        `data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "gpt-4o", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(chunk({ role: "assistant", content: "Hel" }));
      setTimeout(() => {
        response.write(chunk({ content: "lo" }));
        response.write(chunk({}, "stop"));
        lastWrite = performance.now();
        response.end("data: [DONE]\n\n");
      }, 400);
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(provider.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => provider.close(() => resolve())));

let wire: LlmServer;
beforeAll(() => {
  wire = startLlmServer();
});
afterAll(() => wire.close());

describe("the real model's stream reaches the client as it arrives, while it is recorded", () => {
  test("the first delta arrives before the provider has finished; the trace and the cassette hold the whole reply", async () => {
    let firstDelta = 0;
    const agent = async () => {
      const client = new OpenAI({ apiKey: "sk-test", maxRetries: 0 });
      const stream = await client.chat.completions.create({ model: "gpt-4o", stream: true, messages: [{ role: "user", content: "hi" }] });
      let text = "";
      for await (const part of stream) {
        const delta = part.choices[0]?.delta.content ?? "";
        if (delta !== "" && firstDelta === 0) firstDelta = performance.now();
        text += delta;
      }
      return text;
    };
    const path = join(mkdtempSync(join(tmpdir(), "tooltrace-live-stream-")), "stream.json");
    const session = createSession({ agent, upstream: url, cassette: { mode: "record", path } });
    const turn = await session.send("go");
    session.close();
    expect(turn.text).toBe("Hello");
    expect(firstDelta).toBeGreaterThan(0);
    expect(firstDelta).toBeLessThan(lastWrite);
    expect(turn.modelCalls[0]).toMatchObject({ status: "completed", answeredBy: { kind: "real" }, reply: { text: "Hello" } });
    const file = JSON.parse(readFileSync(path, "utf8")) as { llm: { reply?: { text: string } }[] };
    expect(file.llm[0]?.reply?.text).toBe("Hello");
  });
});
