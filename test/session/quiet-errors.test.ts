import { join } from "node:path";
import { expect, test } from "vitest";
import { createSession, StubConfigError, type ToolStub } from "tooltrace";

const own = join(import.meta.dirname, "../../src");

/** The frames of a stack, one per line. */
const frames = (stack: string | undefined) => (stack ?? "").split("\n").filter((line) => /^\s+at /.test(line));

/** The stack of the error `createSession` throws for a rule with this `status` constraint (a misspelt keyword). */
function refusedStack(status: unknown): string | undefined {
  let thrown: unknown;
  try {
    createSession({
      tools: { list_tasks: () => [] },
      stubs: [{ id: "x", tool: "list_tasks", match: { status }, outcome: { response: [] } }] as unknown as ToolStub[],
      agent: () => "",
    });
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(StubConfigError);
  const stack = (thrown as Error).stack;
  expect(stack).toContain("unknown keyword `cosnt`");
  return stack;
}

test("an error tooltrace throws shows the user's frames, none of tooltrace's own files", () => {
  const stack = refusedStack({ cosnt: "open" });
  expect(frames(stack).filter((line) => line.includes(own))).toEqual([]);
  expect(frames(stack)[0]).toContain("quiet-errors.test.ts");
});

test("a fault found deep in a constraint still shows the user's frame, and no more frames than Error.stackTraceLimit", () => {
  // Each level of `properties` is a level of validation under the user's call: 12 of them pass V8's 10 frames.
  let schema: Record<string, unknown> = { cosnt: "open" };
  for (let i = 0; i < 12; i++) schema = { properties: { [`level${i}`]: schema } };
  const stack = refusedStack(schema);
  expect(frames(stack)[0]).toContain("quiet-errors.test.ts");
  expect(frames(stack).length).toBeLessThanOrEqual(Error.stackTraceLimit);
  expect(Error.stackTraceLimit).toBe(10);
});
