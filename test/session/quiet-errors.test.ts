import { join } from "node:path";
import { expect, test } from "vitest";
import { createSession, StubConfigError, type ToolStub } from "tooltrace";

const own = join(import.meta.dirname, "../../src");

/** The frames of a stack, one per line. */
const frames = (stack: string | undefined) => (stack ?? "").split("\n").filter((line) => /^\s+at /.test(line));

test("an error tooltrace throws shows the user's frames, none of tooltrace's own files", () => {
  let thrown: unknown;
  try {
    createSession({
      tools: { list_tasks: () => [] },
      stubs: [{ id: "x", tool: "list_tasks", match: { status: { cosnt: "open" } }, outcome: { response: [] } }] as unknown as ToolStub[],
      agent: () => "",
    });
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(StubConfigError);
  const stack = (thrown as Error).stack;
  expect(stack).toContain("unknown keyword `cosnt`");
  expect(frames(stack).filter((line) => line.includes(own))).toEqual([]);
  expect(frames(stack)[0]).toContain("quiet-errors.test.ts");
});
