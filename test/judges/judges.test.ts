import OpenAI from "openai";
import { describe, expect, test } from "vitest";
import { answerJudge, createSession, type Judge, modelJudge, trajectoryJudge, trials } from "tooltrace";
import { readVerdict } from "../../src/judges/model-judge.js";

/** An agent on the OpenAI SDK with two tools, its model scripted by the session. */
function weatherSession(llm: Parameters<typeof createSession>[0]["llm"]) {
  const tools = {
    get_weather: async ({ city }: { city: string }) => ({ city, tempC: 21 }),
    send_report: async ({ to }: { to: string }) => ({ sent: to }),
  };
  const agent = async (message: string) => {
    const client = new OpenAI({ apiKey: "sk-test" });
    const offered = Object.keys(tools).map((name) => ({ type: "function" as const, function: { name, parameters: { type: "object" } } }));
    const completion = await client.chat.completions.create({
      model: "gpt-4o",
      messages: [{ role: "user", content: message }],
      tools: offered,
    });
    const reply = completion.choices[0]?.message;
    for (const call of reply?.tool_calls ?? []) {
      if (call.type !== "function") continue;
      const input = JSON.parse(call.function.arguments) as never;
      if (call.function.name === "get_weather") await tools.get_weather(input);
      if (call.function.name === "send_report") await tools.send_report(input);
    }
    return reply?.content ?? "";
  };
  return createSession({ agent, tools, llm });
}

describe("judges: scores between 0 and 1, thresholds, kept on the turn", () => {
  test("answerJudge: partial credit for what the answer says; the score and its reason stay on the turn", async () => {
    const turn = await weatherSession(["It is sunny in Paris."]).send("Weather in Paris?");
    await expect(turn).toSatisfyJudge(answerJudge({ includes: ["Paris", "sunny"] }));
    await expect(turn).toSatisfyJudge(answerJudge({ includes: ["Paris", /\d+ ?°C/] }), { threshold: 0.5 });
    await expect(expect(turn).toSatisfyJudge(answerJudge({ includes: ["Paris", /\d+ ?°C/] }), { threshold: 0.8 })).rejects.toThrow(
      /Expected: judge "answer" to score at least 0.8\nReceived: 0.50: it does not say \/\\d\+ \?°C\//,
    );
    await expect(turn).not.toSatisfyJudge(answerJudge({ includes: ["Paris"], excludes: ["sunny"] }));
    expect(turn.scores?.map((record) => [record.judge, record.score, record.pass])).toEqual([
      ["answer", 1, true],
      ["answer", 0.5, true],
      ["answer", 0.5, false],
      ["answer", 0, false],
    ]);
  });

  test("trajectoryJudge: each expected call earns its share, less for other arguments or the wrong order", async () => {
    const llm = [
      {
        toolCalls: [
          { name: "send_report", input: { to: "ops" } },
          { name: "get_weather", input: { city: "Oslo" } },
        ],
      },
    ];
    const turn = await weatherSession(llm).send("Report the weather in Paris to ops.");
    const expected = [
      { tool: "get_weather", input: { city: "Paris" } },
      { tool: "send_report", input: { to: "ops" } },
    ];
    const judge = trajectoryJudge(expected);
    await expect(turn).not.toSatisfyJudge(judge, { threshold: 0.6 });
    await expect(turn).toSatisfyJudge(judge, { threshold: 0.3 });
    // get_weather with other arguments (0.5), then send_report, which came before it (0.25): 0.375.
    expect(turn.scores?.[0]?.score).toBe(0.375);
    expect(turn.scores?.[0]?.reason).toBe("get_weather: other arguments (0.5); send_report: out of order (0.25)");
  });

  test("modelJudge with the session's mock model: the model sees the prompt, the score comes from its JSON", async () => {
    const prompts: string[] = [];
    const turn = await weatherSession([
      "Sunny in Paris, 21 °C.",
      ({ lastUserMessage }) => {
        prompts.push(lastUserMessage ?? "");
        return '{"score": 0.8, "reason": "names the city and a temperature"}';
      },
    ]).send("Weather in Paris?");
    await expect(turn).toSatisfyJudge(modelJudge({ criteria: "It names the city and a temperature." }), { threshold: 0.7 });
    expect(prompts[0]).toContain(
      "Criteria: It names the city and a temperature.\nQuestion: Weather in Paris?\nAnswer: Sunny in Paris, 21 °C.",
    );
    expect(turn.scores?.[0]).toEqual({
      judge: "model",
      score: 0.8,
      threshold: 0.7,
      pass: true,
      reason: "names the city and a temperature",
    });
  });

  test("a turn judged after its session closed still asks the session's model", async () => {
    const session = weatherSession(["Sunny in Paris, 21 °C.", '{"score": 0.9, "reason": "after close"}']);
    const turn = await session.send("Weather in Paris?");
    session.close();
    await expect(turn).toSatisfyJudge(modelJudge({ criteria: "It names the city." }), { threshold: 0.5 });
    expect(turn.scores?.[0]?.reason).toBe("after close");
  });

  test("a failing model judge shows its prompt; a judge without a model says what to give it", async () => {
    const turn = await weatherSession(["Cloudy.", "score: 0.2 it does not name the city"]).send("Weather in Paris?");
    await expect(expect(turn).toSatisfyJudge(modelJudge({ criteria: "It names the city." }), { threshold: 0.5 })).rejects.toThrow(
      /Received: 0.20: it does not name the city[\s\S]*The judge's prompt:\nYou judge an AI agent's answer against criteria\./,
    );
    const bare = { ...turn };
    await expect(expect(bare).toSatisfyJudge(modelJudge({ criteria: "x" }))).rejects.toThrow(/modelJudge needs a model: give it `ask`/);
    const broken: Judge = () => ({ score: 2 });
    await expect(expect(turn).toSatisfyJudge(broken)).rejects.toThrow(
      /the judge "broken" returned the score 2; a judge returns \{ score \} from 0 to 1/,
    );
  });

  test("trials average each judge's scores beside the pass rate", async () => {
    const report = await trials(4, { seed: 1, print: false }, async ({ random }) => {
      const turn = await weatherSession([random() < 0.5 ? "Sunny in Paris." : "Sunny."]).send("Weather in Paris?");
      await expect(turn).toSatisfyJudge(answerJudge({ includes: ["sunny", "Paris"] }), { threshold: 0 });
    });
    const scores = report.runs.map((run) => run.turns[0]?.scores?.[0]?.score ?? -1);
    expect(scores.every((score) => score === 0.5 || score === 1)).toBe(true);
    expect(report.scores?.answer).toBeCloseTo(scores.reduce((a, b) => a + b, 0) / 4);
    expect(report.summary()).toContain(`mean score answer ${(report.scores?.answer ?? 0).toFixed(2)}`);
  });
});

describe("judges as the red team met them", () => {
  test("a model's score out of range is no pass; a numeric string is read; a /g RegExp judges the same every time", () => {
    expect(readVerdict('{"score": 10, "reason": "ten out of ten"}')).toEqual({
      score: 0,
      reason: "the judging model's score 10 is not between 0 and 1: ten out of ten",
    });
    expect(readVerdict('{"score": "0.8", "reason": "fine"}')).toEqual({ score: 0.8, reason: "fine" });
    expect(readVerdict("Score: 7 of 10")?.score).toBe(0);
    const judge = answerJudge({ includes: [/paris/gi] });
    const subject = { answer: "Paris Paris" } as Parameters<typeof judge>[0];
    expect([judge(subject), judge(subject), judge(subject)].map((result) => (result as { score: number }).score)).toEqual([1, 1, 1]);
  });

  test("trajectoryJudge with nothing expected: full marks, unless extra calls are penalized", async () => {
    const turn = await weatherSession([{ toolCalls: [{ name: "get_weather", input: { city: "Oslo" } }] }]).send("go");
    await expect(turn).toSatisfyJudge(trajectoryJudge([]));
    await expect(turn).not.toSatisfyJudge(trajectoryJudge([], { extra: "penalize" }), { threshold: 0.5 });
  });
});
