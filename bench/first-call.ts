import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { median, quantile } from "./stats.js";

/**
 * A strict session's first call against its later ones, each process fresh (the first strict session of a
 * test file): the duration the trace records for each of five tool calls of an AI SDK turn (a scripted model
 * asking for `list_tasks` five times). Setup (the guards, the session) is the session's, not a call's.
 */
const SCRIPT = `
const { generateText, stepCountIs, tool, jsonSchema } = await import("ai");
const { createSession, mockModel } = await import(${JSON.stringify(join(import.meta.dirname, "..", "..", "dist", "index.js"))});
const tools = { list_tasks: tool({ inputSchema: jsonSchema({ type: "object" }), execute: async () => ({ tasks: ["real"] }) }) };
const model = mockModel(({ toolResults }) => toolResults.length < 5 ? { toolCalls: [{ name: "list_tasks", input: {} }] } : "Done.");
const session = createSession({
  agent: async (prompt) => (await generateText({ model, tools, prompt, stopWhen: stepCountIs(8) })).text,
  tools,
  strict: true,
  stubs: [{ id: "tasks", tool: "list_tasks", outcome: { response: { tasks: ["stub"] } } }],
});
const turn = await session.send("List my tasks five times.");
process.stdout.write(JSON.stringify(turn.toolCalls.map((call) => call.durationMs)));
`;

export interface FirstCallResult {
  readonly first: readonly number[];
  readonly later: readonly number[];
}

export function firstCall(samples = 10): FirstCallResult {
  const first: number[] = [];
  const later: number[] = [];
  for (let i = 0; i < samples; i++) {
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", SCRIPT], {
      encoding: "utf8",
      cwd: join(import.meta.dirname, "..", ".."),
    });
    const durations = JSON.parse(output) as number[];
    first.push(durations[0] ?? Number.NaN);
    later.push(median(durations.slice(1)));
  }
  return { first, later };
}

export function reportFirstCall({ first, later }: FirstCallResult): string {
  const ms = (values: readonly number[]) =>
    `${median(values).toFixed(3)} ms (IQR ${quantile(values, 0.25).toFixed(3)}–${quantile(values, 0.75).toFixed(3)})`;
  const ratios = first.map((value, i) => value / (later[i] as number));
  return [
    "a strict session's first tool call against its later ones (an AI SDK turn, a fresh process per sample):",
    `  first call ${ms(first)}; later calls ${ms(later)}; ratio ${median(ratios).toFixed(1)}x (aim: within 2x)`,
  ].join("\n");
}

if (process.argv[1]?.endsWith("first-call.js")) console.log(reportFirstCall(firstCall()));
