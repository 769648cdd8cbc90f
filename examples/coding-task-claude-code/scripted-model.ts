import type { MockModelRequest, MockModelResponse } from "tooltrace";

/**
 * The model for the coding task, scripted: read the file, fix it with sed, run the test, report. It reads
 * what the tools returned, as a real model would: if the test still fails, it says so.
 */
export function fixTheBugModel(request: MockModelRequest): MockModelResponse | string {
  // Claude Code also asks the model small side questions (a title for the session): no tools there.
  if (!request.tools.some((tool) => tool.name === "Bash")) return "Fix the add function";
  const done = request.toolResults.map((result) => String(result.output));
  const bash = (command: string, description: string): MockModelResponse => ({
    text: `${description}.`,
    toolCalls: [{ name: "Bash", input: { command, description } }],
  });
  if (done.length === 0) return bash("cat add.js", "Read the function");
  if (done.length === 1)
    return done[0]?.includes("a - b") ? bash("sed -i 's/a - b/a + b/' add.js", "Fix the operator") : "I could not find the bug.";
  if (done.length === 2) return bash("node add.test.js", "Run the test");
  return done[2]?.includes("ok")
    ? "Fixed `add`: it subtracted instead of adding. The test passes."
    : `The test still fails: ${done[2] ?? ""}`;
}
