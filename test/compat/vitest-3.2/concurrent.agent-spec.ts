import { expect, test } from "vitest";
import { createSession } from "tooltrace";

// 50 concurrent tests share ONE tools record; each stubs it with its own answer, at its own pace.
let realRuns = 0;
const shared = { list_tasks: async (_input: object) => ((realRuns += 1), { owner: "real" }) };
const names = Array.from({ length: 50 }, (_, i) => `t${i}`);

test.concurrent.for(names)("concurrent %s keeps its own scope", async (name) => {
  const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const session = createSession({
    name,
    tools: shared,
    strict: true,
    stubs: [{ id: `rule-${name}`, tool: "list_tasks", outcome: { response: { owner: name } } }],
    agent: async () => {
      const answers = [];
      for (let i = 0; i < 3; i++) {
        await delay(Math.floor(Math.random() * 15));
        answers.push(((await shared.list_tasks({ i })) as { owner: string }).owner);
      }
      return answers.join(",");
    },
  });
  const turn = await session.send(name);
  expect(turn.text).toBe(`${name},${name},${name}`);
  expect(turn.toolCalls).toHaveLength(3);
});

test("no real tool ran", () => {
  expect(realRuns).toBe(0);
});
