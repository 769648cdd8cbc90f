import { createRuleSet, createSession } from "tooltrace";

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
  // Every rule set below has matches no other shares, so each compiles anew: bounded caches stop growing.
  const ruleSets = (from: number) => {
    for (let i = from; i < from + 2000; i++) {
      createRuleSet([
        { id: "a", tool: "t", match: { id: { const: `task-${i}` } }, outcome: { response: 1 } },
        { id: "b", tool: "t", match: { tags: { contains: { const: `tag-${i}` } } }, outcome: { response: 2 } },
      ]);
    }
    return heap();
  };
  const first = ruleSets(0);
  const second = ruleSets(2000);
  const third = ruleSets(4000);
  return {
    bytes: after - before,
    calls,
    validators: `heap after 2,000 / 4,000 / 6,000 rule sets with distinct matches: ${mb(first)}, ${mb(second)}, ${mb(third)} MB`,
  };
}

function mb(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}
