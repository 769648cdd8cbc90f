import { expect as jestExpect } from "expect";
import { describe, expect, test } from "vitest";
import { matchers, type TooltraceMatchers } from "tooltrace/matchers";
import { recordedTurn } from "../fixtures/recorded-turn.js";

// Jest's own `expect` package, extended the way `tooltrace/jest` does it.
jestExpect.extend(matchers);
const jest = jestExpect as unknown as (value: unknown) => TooltraceMatchers<void> & { not: TooltraceMatchers<void> };

describe("the matchers under Jest's expect", () => {
  test("pass, fail and .not behave as under Vitest", async () => {
    const { turn } = await recordedTurn();
    jest(turn).toHaveCalledTool("complete_task", { input: { task_id: jestExpect.any(String) }, count: 1 });
    jest(turn).not.toHaveCalledTool("complete_task", { input: { task_id: "dog" } });
    jest(turn).toHaveToolOrder(["list_tasks", "notify"]);
    jest(turn).toHaveFailedAction("notify", { error: "SMTP" });
    jest(turn).toHaveMessageIncluding("Buy milk");
    jest(turn).toSucceed();
    expect(() => jest(turn).toHaveCalledTool("complete_task", { count: 2 })).toThrow(/Expected: "complete_task" called exactly 2 times/);
    expect(() => jest(turn).not.toHaveCalledTool("complete_tsk")).toThrow(
      /no tool "complete_tsk" in this turn; did you mean "complete_task"\?/,
    );
    expect(() => jest(turn).not.toHaveFailedAction()).toThrow(/\.not\.toHaveFailedAction/);
  });

  test("failure messages list the numbered calls", async () => {
    const { turn } = await recordedTurn();
    let message = "";
    try {
      jest(turn).toHaveToolOrder(["notify", "list_tasks"]);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("Tool calls (3):");
    expect(message).toContain("2. complete_task");
  });
});

test("under Jest's expect, the user's equality testers apply too", async () => {
  const { turn } = await recordedTurn();
  const anyCase = (a: unknown, b: unknown) =>
    typeof a === "string" && typeof b === "string" ? a.toLowerCase() === b.toLowerCase() : undefined;
  jestExpect.addEqualityTesters([anyCase]);
  jest(turn).toHaveCalledTool("complete_task", { input: { task_id: "MILK" } });
  jest(turn).not.toHaveCalledTool("complete_task", { input: { task_id: "DOG" } });
});
