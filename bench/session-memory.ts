import { createSession } from "../src/index.js";

function heap(): number {
  (globalThis as { gc?: () => void }).gc?.();
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

/** Heap held by one session with 10,000 recorded calls (small JSON input and output, as typical tools have). */
export async function sessionMemory(): Promise<{ bytes: number; calls: number }> {
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
  return { bytes: after - before, calls };
}
