import { createRuleSet, createSession } from "../src/index.js";
import { cachedValidatorCount } from "../src/stubs/ajv-validator.js";
import { cachedProgramCount } from "../src/stubs/compile-match.js";
import { cachedFirstMatchCount } from "../src/stubs/match-codegen.js";

function heap(): number {
  (globalThis as { gc?: () => void }).gc?.();
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

/**
 * Heap held by one session with 10,000 recorded calls (small JSON input and output, as typical tools have),
 * and the size of the compiled-match caches after 2,000 rule sets with distinct matches (each bounded).
 */
export async function sessionMemory(): Promise<{ bytes: number; calls: number; validators: string }> {
  if (!(globalThis as { gc?: unknown }).gc) throw new Error("run with node --expose-gc");
  const tools = { complete_task: (input: { task_id: string }) => ({ success: true, id: input.task_id }) };
  const before = heap();
  const session = createSession({
    tools,
    stubs: [{ id: "ok", tool: "complete_task", outcome: { response: { success: true } } }],
    agent: () => {
      for (let i = 0; i < 10_000; i++) tools.complete_task({ task_id: `task-${i}` });
      return "done";
    },
  });
  await session.send("go");
  const after = heap();
  const calls = session.toolCalls.length;
  session.close();
  for (let i = 0; i < 2000; i++) {
    createRuleSet([
      { id: "a", tool: "t", match: { id: { const: `task-${i}` } }, outcome: { response: 1 } },
      { id: "b", tool: "t", match: { tags: { contains: { const: `tag-${i}` } } }, outcome: { response: 2 } },
    ]);
  }
  return {
    bytes: after - before,
    calls,
    validators: `${cachedProgramCount()} programs, ${cachedFirstMatchCount()} rule lists, ${cachedValidatorCount()} ajv validators`,
  };
}
