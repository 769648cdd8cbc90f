import { expect, test } from "vitest";
import { createSession } from "tooltrace";

// A matcher on a turn whose agent threw said "Received: 0 matching calls ... (no tool calls)" and never why:
// the agent's own error sat in turn.error alone.
test("a failing matcher on a failed turn shows the agent's own error, its type and the line that threw it, before the calls", async () => {
  const tools = { lookup: (_input: { id: string }) => ({ found: true }) };
  const session = createSession({
    tools,
    agent: () => {
      tools.lookup({ id: "A1" });
      throw new TypeError("stepCountIs is not a function");
    },
  });
  const turn = await session.send("Look A1 up, then answer.");
  let message = "";
  try {
    expect(turn).toHaveCalledTool("lookup", { count: 2 });
  } catch (error) {
    message = (error as Error).message;
  }
  const said = message.indexOf(
    "The agent's turn failed:\n  turn 0: TypeError: stepCountIs is not a function\n    at test/matchers/agent-error.test.ts:",
  );
  expect(said, message).toBeGreaterThan(-1);
  expect(said).toBeLessThan(message.indexOf("Tool calls (1):"));
});

test("toSucceed, which lists the turn's error itself, says it once", async () => {
  const session = createSession({
    tools: {},
    agent: () => {
      throw new Error("boom");
    },
  });
  const turn = await session.send("go");
  expect(() => expect(turn).toSucceed()).toThrow(/turn 0 failed: Error: boom/);
  try {
    expect(turn).toSucceed();
  } catch (error) {
    expect((error as Error).message.split("Error: boom").length - 1).toBe(1);
  }
});
