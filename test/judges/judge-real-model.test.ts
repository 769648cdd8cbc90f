import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession, modelJudge } from "tooltrace";
import { createLlmAnswer, type LoopbackServer, serveOnLoopback } from "tooltrace/wire";

// A model judge could not use the real model: its client's request after the turn was refused as a hermetic
// violation and the cassette recorded nothing; without `ask`, a session with `upstream` and no `llm` threw
// "ctx.callLLM needs the session's model".
const received: string[] = [];
let provider: LoopbackServer;
beforeAll(async () => {
  const answer = createLlmAnswer({
    respond: (request) =>
      String(request.lastUserMessage).startsWith("You judge")
        ? '{"score": 0.9, "reason": "It names the city and a temperature."}'
        : "It is 21 °C in Paris.",
  }).answer;
  provider = await serveOnLoopback((request) => {
    received.push(new URL(request.url).pathname);
    return answer(request);
  });
});
afterAll(() => provider.close());

const agent = async (message: string) => {
  const client = new OpenAI({ apiKey: "sk-test", maxRetries: 0 });
  const completion = await client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: message }] });
  return completion.choices[0]?.message.content ?? "";
};
const criteria = "It names the city and a temperature.";

describe("a judge on the real model, through the session's chain", () => {
  test("upstream alone: the judge asks the model the agent called; the cassette records it, and it replays with the provider gone", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "tooltrace-judge-")), "judge.json");
    const recorder = createSession({ agent, upstream: provider.url, cassette: { mode: "record", path } });
    const turn = await recorder.send("Weather in Paris?");
    const from = received.length;
    await expect(turn).toSatisfyJudge(modelJudge({ criteria }), { threshold: 0.7 });
    // The judge's request reached the provider the agent's did, and is the judge's in the trace, not the agent's.
    expect(received.slice(from)).toEqual(["/v1/chat/completions"]);
    expect(turn.modelCalls).toHaveLength(1);
    expect(turn.judgeCalls.map((call) => [call.judge, call.provider, call.answeredBy?.kind])).toEqual([["model", "openai.chat", "real"]]);
    expect(turn.scores?.[0]).toMatchObject({ judge: "model", score: 0.9 });
    recorder.close();

    const before = received.length;
    const replayer = createSession({ agent, upstream: provider.url, cassette: { mode: "replay", path } });
    const replayed = await replayer.send("Weather in Paris?");
    await expect(replayed).toSatisfyJudge(modelJudge({ criteria }), { threshold: 0.7 });
    expect(replayed.judgeCalls.map((call) => call.answeredBy)).toEqual([{ kind: "cassette", entry: 1 }]);
    expect(received.length).toBe(before);
  });

  test("a judge's own client (ask with the OpenAI SDK) goes through the chain too, recorded by the cassette", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "tooltrace-judge-")), "judge.json");
    const ask = async (prompt: string) => {
      const client = new OpenAI({ apiKey: "sk-judge", maxRetries: 0 });
      const completion = await client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: prompt }] });
      return completion.choices[0]?.message.content ?? "";
    };
    const session = createSession({ agent, upstream: provider.url, cassette: { mode: "record", path } });
    const turn = await session.send("Weather in Paris?");
    await expect(turn).toSatisfyJudge(modelJudge({ criteria, ask, name: "gpt-4o-mini judge" }), { threshold: 0.7 });
    expect(turn.judgeCalls.map((call) => [call.judge, call.model])).toEqual([["gpt-4o-mini judge", "gpt-4o-mini"]]);
    expect(session.takeViolations()).toEqual([]);
  });

  test("in a strict session without a cassette, the judge's live call is refused like the agent's would be", async () => {
    const session = createSession({ agent: () => "It is 21 °C in Paris.", tools: {}, upstream: provider.url, strict: true });
    const turn = await session.send("Weather in Paris?");
    const from = received.length;
    await expect(expect(turn).toSatisfyJudge(modelJudge({ criteria, ask: (prompt) => agent(prompt) }))).rejects.toThrow();
    expect(received.length).toBe(from);
    expect(session.takeViolations()).toEqual([expect.stringContaining("strict mode: a call to the real model (openai.chat gpt-4o)")]);
  });
});
