import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { vitestInYamlProject, yamlProject } from "./yaml-child.js";

const runs = join(yamlProject, "runs");
mkdirSync(runs, { recursive: true });
const folder = mkdtempSync(join(runs, "mistakes-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** An agent module with a named export only: `agent: ./agents.ts#bookingAgent` runs it. */
const AGENTS = 'export { default as bookingAgent } from "../../flight-agent.js";\n';

/** Each file a user's mistake (or a green case), all run by one Vitest run. */
const FILES: Record<string, string> = {
  "tool-typo.eval.yaml": `name: a typo in a tool mock
adapter: anthropic
input: { query: Book a flight to Paris. }
mocks:
  tool_mocks:
    - tool: search_flights
      returns: [{ id: FL1, price: 10 }]
    - tool: serch_flights
      returns: []
---
name: a typo in the expected tools
adapter: anthropic
input: { query: Book a flight to Paris. }
expected:
  tools: [search_flights, bok_flight]
`,
  "field.eval.yaml": "name: f\nadapter: anthropic\ninput: { query: hi }\nexpected_tool: [search_flights]\n",
  "thresold.eval.yaml": "name: t\nadapter: anthropic\ninput: { query: hi }\nthresold: { min_score: 50 }\n",
  "export.eval.yaml": `name: a typo in the agent's export
agent: ./agents.ts#bookingAgnt
input: { query: Book a flight to Paris. }
---
name: a module without a default export
agent: ./agents.ts
input: { query: Book a flight to Paris. }
---
name: the named export runs
agent: ./agents.ts#bookingAgent
input: { query: Book a flight to Paris. }
expected: { tools: [search_flights, book_flight] }
`,
  "fails.eval.yaml": `name: the booking lacks its confirmation
adapter: anthropic
input: { query: Book a flight to Paris. }
expected:
  tools: [search_flights, book_flight]
  output:
    contains: [CONF-1, CONF-999]
mocks:
  tool_mocks:
    - { tool: search_flights, returns: [{ id: FL1, price: 10 }] }
    - { tool: book_flight, returns: { confirmation: CONF-1 } }
`,
  "green.eval.yaml": `name: books quietly
adapter: anthropic
input: { query: Book a flight to Paris. }
expected: { tools: [search_flights, book_flight] }
`,
};

/** The line (from 1) of the first line of `file` holding `text`. */
function lineOf(file: string, text: string): number {
  return (FILES[file] as string).split("\n").findIndex((line) => line.includes(text)) + 1;
}

let run: Promise<{ code: number; output: string; reports: Map<string, string> }> | undefined;

/** One Vitest run of every file; each failure's report (its FAIL line to the rule after it), by test or file name. */
function runOnce() {
  run ??= (async () => {
    writeFileSync(join(folder, "agents.ts"), AGENTS);
    for (const [name, yaml] of Object.entries(FILES)) writeFileSync(join(folder, name), yaml);
    const names = Object.keys(FILES).map((name) => name.replace(".eval.yaml", ""));
    const only = `${relative(yamlProject, folder)}/{${names.join(",")}}.eval.yaml`;
    const { code, output } = await vitestInYamlProject({ FIXTURE_ONLY: only, FIXTURE_HESITATE: "0" });
    const reports = new Map<string, string>();
    for (const report of output.matchAll(/^ FAIL {2}\S+\/([\w.-]+)(?: > (.+)| \[ \S+ \])$[\s\S]*?(?=^⎯+\[\d+\/\d+\]⎯$)/gm))
      reports.set((report[2] ?? report[1]) as string, report[0]);
    return { code, output, reports };
  })();
  return run;
}

async function report(name: string): Promise<string> {
  return (await runOnce()).reports.get(name) ?? `(${name} did not fail)`;
}

describe("a mistake in a YAML eval is named at its line, with what was meant", { timeout: 60_000 }, () => {
  test("a tool mock's tool the agent lacks, a typo of one it has, fails the case before the agent runs", async () => {
    const typo = await report("a typo in a tool mock");
    expect(typo).toMatch(
      new RegExp(
        `tool-typo\\.eval\\.yaml:${lineOf("tool-typo.eval.yaml", "serch_flights")}:\\d+, case "a typo in a tool mock" at /mocks/tool_mocks/1/tool: the agent has no tool "serch_flights"\\.`,
      ),
    );
    expect(typo).toContain('Fix: did you mean "search_flights"?');
    // Refused before the agent ran: no variant, no branch report.
    expect(typo).not.toContain("Variants:");
    expect(typo).toMatch(new RegExp(`❯ \\S+tool-typo\\.eval\\.yaml:${lineOf("tool-typo.eval.yaml", "serch_flights")}:\\d+`));
    const expected = await report("a typo in the expected tools");
    expect(expected).toMatch(/tool-typo\.eval\.yaml:15:\d+, case "a typo in the expected tools" at \/expected\/tools\/1: /);
    expect(expected).toContain('did you mean "book_flight"?');
  });

  test("an unknown field is refused at its line with the field meant, a nested one by its dotted name", async () => {
    const field = await report("field.eval.yaml");
    expect(field).toMatch(/field\.eval\.yaml:4:1, case "f" at \/expected_tool: unknown field `expected_tool`\./);
    expect(field).toContain("Fix: did you mean `expected.tools`?");
    const thresold = await report("thresold.eval.yaml");
    expect(thresold).toMatch(/thresold\.eval\.yaml:4:1, case "t" at \/thresold: unknown field `thresold`\./);
    expect(thresold).toContain("Fix: did you mean `thresholds`?");
  });

  test("an agent export the module lacks is refused at the `agent` line, with the export meant; a named export runs", async () => {
    const typo = await report("a typo in the agent's export");
    expect(typo).toMatch(
      /export\.eval\.yaml:2:\d+, case "a typo in the agent's export" at \/agent: \.\/agents\.ts has no export "bookingAgnt"\./,
    );
    expect(typo).toContain('Fix: did you mean "bookingAgent"?');
    const noDefault = await report("a module without a default export");
    expect(noDefault).toMatch(/export\.eval\.yaml:6:\d+, case "a module without a default export" at \/agent: /);
    expect(noDefault).toContain("did you mean `./agents.ts#bookingAgent`?");
    const { output, reports } = await runOnce();
    expect(reports.has("the named export runs")).toBe(false);
    expect(output).toMatch(/✓ the named export runs/);
  });

  test("a failed expectation points at its line of the YAML file, with no frame of tooltrace's", async () => {
    const failed = await report("the booking lacks its confirmation");
    expect(failed).toContain('YAML eval "the booking lacks its confirmation": 0 of 1 variants passed: output lacks: CONF-999');
    expect(failed).toMatch(/❯ \S+fails\.eval\.yaml:7:\d+\n/);
    // Vitest's code frame shows the YAML lines around it, its caret under the missed item.
    const [, code = "", caret = ""] = /\n( +7\| {5}contains: \[CONF-1, CONF-999\])\n( +\| +\^)\n/.exec(failed) ?? [];
    expect(code).not.toBe("");
    expect(caret.indexOf("^")).toBe(code.indexOf("CONF-999"));
    expect(failed).not.toMatch(/yaml-evals\.ts|yaml-run\.ts|src\/(evals|vitest)\//);
  });

  test("a green case prints nothing of its own", async () => {
    const { output } = await runOnce();
    expect(output).toMatch(/✓ \S+\/green\.eval\.yaml \(1 test\)/);
    expect(output).not.toContain("▶ books quietly");
  });
});
