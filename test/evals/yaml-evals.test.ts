import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { vitestInYamlProject as vitest, yamlProject as project } from "./yaml-child.js";

const runs = join(project, "runs");
mkdirSync(runs, { recursive: true });
const folder = mkdtempSync(join(runs, "case-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Writes a YAML eval beside the fixture's agent and runs only it. */
async function runYaml(name: string, yaml: string, env: Record<string, string> = {}) {
  const file = join(folder, name);
  writeFileSync(file, yaml);
  return vitest({ FIXTURE_ONLY: relative(project, file), ...env }, "--reporter=verbose");
}

/**
 * The files each test expects refused while Vitest collects them, by name. Each run of Vitest costs seconds of
 * CPU and a refusal none: they are collected in one run, and each test reads its file's own report.
 */
const REFUSED: Record<string, string> = {
  "refused.eval.yaml": "name: r\ninput: { query: hi }\nfaults:\n  - { fault: timeout }\n",
  "both.eval.yaml": "name: both\ninput: { query: hi }\nmocks:\n  tool_mocks:\n    - { tool: x, returns: 1, error: boom }\n",
  "stub.eval.yaml":
    "name: stub\ninput: { query: hi }\nstubs:\n  - { id: s, tool: x, match: { to: { lenght: 3 } }, outcome: { response: 1 } }\n",
  "params.eval.yaml": "name: params\ninput: { query: hi }\nmocks: { tool_mocks: [ { tool: x, match_params: [Paris] } ] }\n",
  "syntax.eval.yaml": "name: broken\ninput: [1,\n",
  "cost.eval.yaml": "name: c\ninput: { query: hi }\nthresholds: { max_cost: 0.05 }\n",
  "unknown.eval.yaml": "name: u\ninput: { query: hi }\nmocks: { tool_mock: [] }\n",
  "slash.eval.yaml": 'name: s\ninput: { query: hi }\nmocks:\n  seed: 1\n  "a/b~": []\n',
  // Every fault at once, each at its key's line and column, and the code frame at the first.
  "many.eval.yaml":
    "name: many\ninput: { query: hi }\nmocks:\n  tool_mock: []\n  seed: one\n---\nname: other\ninput: { qury: hi }\nthresholds: { max_cost: 1 }\n",
  "lookbehind.eval.yaml":
    'name: lb\ninput: { query: hi }\nmocks: { response_mocks: [ { match_prompt: "(?<=a)b", regex: true, returns: x } ] }\n',
  "bomb.eval.yaml": `name: bomb\ninput: { query: hi }\n${[
    "a: &a [x,x,x,x,x,x,x,x,x,x]",
    ...[1, 2, 3, 4, 5].map(
      (i) =>
        `l${i}: &l${i} [${Array(10)
          .fill(i === 1 ? "*a" : `*l${i - 1}`)
          .join(",")}]`,
    ),
  ].join("\n")}\n`,
  "tag.eval.yaml": 'name: tag\ninput: { query: !!js/function "function () { return 1 }" }\n',
  "big.eval.yaml": `name: big\ninput: { query: "${"x".repeat(1_100_000)}" }\n`,
};
let refusedRun: Promise<{ output: string; reports: Map<string, string> }> | undefined;

/** One run of every refused file: the whole output, and each failed file's report (its FAIL line to the rule after it). */
function refusedRunOnce(): Promise<{ output: string; reports: Map<string, string> }> {
  refusedRun ??= (async () => {
    for (const [name, yaml] of Object.entries(REFUSED)) writeFileSync(join(folder, name), yaml);
    const names = Object.keys(REFUSED).map((name) => name.replace(".eval.yaml", ""));
    const { output } = await vitest({ FIXTURE_ONLY: `${relative(project, folder)}/{${names.join(",")}}.eval.yaml` }, "--reporter=verbose");
    const reports = new Map<string, string>();
    for (const report of output.matchAll(/^ FAIL {2}\S+\/([\w.]+) [\s\S]*?(?=^⎯+\[\d+\/\d+\]⎯$)/gm))
      reports.set(report[1] as string, reports.has(report[1] as string) ? "(reported twice)" : report[0]);
    return { output, reports };
  })();
  return refusedRun;
}

/** The report of one refused file, as it reads in the shared run. */
async function refused(name: string): Promise<{ output: string }> {
  const { reports } = await refusedRunOnce();
  return { output: reports.get(name) ?? `(${name} was not refused)` };
}

describe("YAML evals in evalview's schema", { timeout: 60_000 }, () => {
  test("the seed's flight-booking file runs unchanged with 3 variants; its branch report has the seed's shape", async () => {
    const { code, output } = await vitest({ TOOLTRACE_VARIANTS: "3", FIXTURE_ONLY: "flight-booking.eval.yaml" });
    expect(output).toContain("▶ flight-booking-sim  (seed=42, variants=3)");
    expect(output).toMatch(/ {2}Mocks applied:\n {4}· tool:search_flights ×3\n {4}· tool:book_flight ×2\n {2}Variants:\n/);
    expect(output).toMatch(
      / {4}· #0 branch=b0 \d+ tokens \d+ms ✓\n {4}· #1 branch=b1 \d+ tokens \d+ms ✓\n {4}· #2 branch=b2 \d+ tokens \d+ms ✗ score 50 < 70: tools not called: book_flight\n/,
    );
    // As the seed prints it: a branch per variant, the same path listed again.
    expect(output).toMatch(
      / {2}Branches:\n {4}· b0: step-0:search_flights → step-1:book_flight\n {4}· b1: step-0:search_flights → step-1:book_flight\n {4}· b2: step-0:search_flights\n/,
    );
    // One variant in three missed a tool: evalview exits 1 on any failed test, and so does the Vitest run.
    expect(code).toBe(1);
    expect(output).toContain('YAML eval "flight-booking-sim": 2 of 3 variants passed: tools not called: book_flight (score 50 < 70).');
  });

  test("a tool mock for a tool the agent lacks (no typo of one it has) is unused, as in evalview: said once; the case passes quietly", async () => {
    const { code, output } = await vitest({ FIXTURE_ONLY: "flight-booking.eval.yaml", FIXTURE_NO_EMAIL: "1", FIXTURE_HESITATE: "0" });
    expect(output).toContain(
      '[tooltrace] YAML eval "flight-booking-sim": tool_mocks/2 mocks send_email, which the agent does not have: it is never used.',
    );
    expect(output.match(/mocks send_email/g)).toHaveLength(1);
    expect(output).toMatch(/✓ flight-booking\.eval\.yaml \(1 test\)/);
    // A green case prints no report of its own (a verbose reporter shows it).
    expect(output).not.toContain("▶ flight-booking-sim");
    expect(code).toBe(0);
  });

  test("every variant passing passes; TOOLTRACE_SEED moves the seed; a verbose reporter shows the report", async () => {
    const { code, output } = await vitest(
      {
        TOOLTRACE_VARIANTS: "2",
        TOOLTRACE_SEED: "7",
        FIXTURE_HESITATE: "0",
        FIXTURE_ONLY: "flight-booking.eval.yaml",
      },
      "--reporter=verbose",
    );
    expect(output).toContain("▶ flight-booking-sim  (seed=7, variants=2)");
    expect(code).toBe(0);
  });

  test("several cases in one file are several tests; tooltrace's own stubs, HTTP mocks and response mocks work beside evalview's", async () => {
    const { code, output } = await runYaml(
      "mixed.eval.yaml",
      `name: own-stubs
adapter: anthropic
input: { query: Book a flight to Paris. }
expected: { tools: [search_flights, book_flight], output: { contains: [CONF-1] } }
stubs:
  - { id: cheap, tool: search_flights, match: { to: { pattern: "^Par" } }, outcome: { response: [{ id: FL1, price: 10 }] } }
  - { id: booked, tool: book_flight, outcome: { response: { confirmation: CONF-1 } } }
---
name: the model answered by a response mock
adapter: anthropic
input: { query: Please summarize my trip. }
expected: { output: { contains: ["Summary: one flight"] } }
mocks:
  response_mocks:
    - { match_prompt: summarize, returns: "Summary: one flight found at $299." }
---
name: strict refuses the unmocked booking
adapter: anthropic
input: { query: Book a flight to Paris. }
thresholds: { min_pass_rate: 0 }
mocks:
  strict: true
  tool_mocks:
    - { tool: search_flights, returns: [{ id: FL9, price: 1 }] }
`,
      { FIXTURE_HESITATE: "0" },
    );
    expect(output).toMatch(/✓ .*own-stubs/);
    expect(output).toMatch(/✓ .*the model answered by a response mock/);
    expect(output).toContain("strict mode: no stub rule matched book_flight");
    expect(output).toContain("Tests  3 passed (3)");
    expect(code).toBe(0);
  });

  test("a case's `faults` meet the agent's model calls: the AI SDK retries a 429; a fault that is not one is refused at its line", async () => {
    const { code, output } = await runYaml(
      "faulty.eval.yaml",
      `name: rate limited once
adapter: anthropic
input: { query: Book a flight to Paris. }
expected: { tools: [search_flights, book_flight] }
faults:
  - { fault: rate_limit, calls: [1, 3] }
mocks:
  tool_mocks:
    - { tool: search_flights, returns: [{ id: FL1, price: 10 }] }
    - { tool: book_flight, returns: { confirmation: CONF-1 } }
---
name: rate limited always
adapter: anthropic
input: { query: Book a flight to Paris. }
expected: { tools: [search_flights] }
faults:
  - { fault: rate_limit }
`,
      { FIXTURE_HESITATE: "0" },
    );
    expect(output).toMatch(/✓ .*rate limited once/);
    expect(output).toMatch(/× .*rate limited always/);
    expect(output).toContain("rate_limit (429, Retry-After 0 s) injected by faults[0] on model call 3");
    expect(code).toBe(1);
    const refusal = await refused("refused.eval.yaml");
    expect(refusal.output).toMatch(/refused\.eval\.yaml:4:\d+, case "r" at \/faults\/0\/fault: unknown fault "timeout"\./);
    expect(refusal.output).toContain("Fix: use one of rate_limit, server_error, overloaded, malformed, stream_cut, network_error, slow.");
  });

  test("faults are reported while Vitest collects the file, with the file, the case and the JSON pointer", async () => {
    const both = await refused("both.eval.yaml");
    expect(both.output).toMatch(
      /YAML eval runs\/case-\w+\/both\.eval\.yaml:5:30, case "both" at \/mocks\/tool_mocks\/0\/error: a tool mock either `returns` or raises an `error`, not both\./,
    );
    // Each file is a failed suite of its own, and nothing else failed.
    const { output, reports } = await refusedRunOnce();
    expect(output).toContain(`Failed Suites ${Object.keys(REFUSED).length}`);
    expect([...reports.keys()].sort()).toEqual(Object.keys(REFUSED).sort());
    const stub = await refused("stub.eval.yaml");
    expect(stub.output).toMatch(
      /stub\.eval\.yaml:4:\d+, case "stub" at \/stubs\/0\/match\/to\/lenght: unknown keyword `lenght` in a match constraint/,
    );
    const params = await refused("params.eval.yaml");
    expect(params.output).toContain(
      'case "params" at /mocks/tool_mocks/0/match_params: `match_params` is a mapping of parameter names to values.',
    );
    const syntax = await refused("syntax.eval.yaml");
    expect(syntax.output).toMatch(/syntax\.eval\.yaml: not valid YAML at line \d+, column \d+/);
    const cost = await refused("cost.eval.yaml");
    expect(cost.output).toContain('case "c" at /thresholds/max_cost: tooltrace knows no prices, so it cannot check a cost.');
    const unknown = await refused("unknown.eval.yaml");
    expect(unknown.output).toContain('case "u" at /mocks/tool_mock: unknown field `tool_mock`.');
    expect(unknown.output).toContain(
      "Fix: did you mean `tool_mocks`? Fields here: seed, strict, variants, tool_mocks, response_mocks, http_mocks.",
    );
    // Every fault at once, each at its key's line and column, and the code frame at the first.
    const slash = await refused("slash.eval.yaml");
    expect(slash.output).toMatch(/slash\.eval\.yaml:5:3, case "s" at \/mocks\/a~1b~0: unknown field `a\/b~`\./);
    const many = await refused("many.eval.yaml");
    expect(many.output).toContain("many.eval.yaml: 4 faults, each where it is written:");
    expect(many.output).toMatch(/many\.eval\.yaml:4:3, case "many" at \/mocks\/tool_mock: unknown field `tool_mock`\./);
    expect(many.output).toMatch(/many\.eval\.yaml:5:3, case "many" at \/mocks\/seed: the seed is an integer; got "one"\./);
    expect(many.output).toMatch(/many\.eval\.yaml:8:\d+, case "other" at \/input\/query: the user message is `input\.query`, a string\./);
    expect(many.output).toMatch(/many\.eval\.yaml:9:15, case "other" at \/thresholds\/max_cost: tooltrace knows no prices/);
    expect(many.output).toMatch(/❯ .*many\.eval\.yaml:4:3/);
  });

  test("a regex response mock runs in linear time: a crafted prompt against `(a+)+$` cannot block the worker", async () => {
    // On V8's engine this prompt kept the worker busy past 60 s, and the test's timeout could not stop it.
    const { code, output } = await runYaml(
      "redos.eval.yaml",
      `name: redos
adapter: anthropic
input: { query: "${"a".repeat(33)}!" }
thresholds: { min_pass_rate: 0 }
mocks:
  response_mocks:
    - { match_prompt: "(a+)+$", regex: true, returns: never }
`,
      { FIXTURE_HESITATE: "0" },
    );
    expect(output).toContain("Tests  1 passed (1)");
    expect(code).toBe(0);
    const lookbehind = await refused("lookbehind.eval.yaml");
    expect(lookbehind.output).toMatch(/case "lb" at \/mocks\/response_mocks\/0\/match_prompt: "\(\?<=a\)b" uses the lookbehind/);
  });

  test("alias bombs, tags and oversized files are tooltrace errors naming the file and the line", async () => {
    const bomb = await refused("bomb.eval.yaml");
    expect(bomb.output).toMatch(
      /bomb\.eval\.yaml: its aliases \(the first at line 4\) expand more than 100 times: refused as an alias bomb/,
    );
    expect((await refusedRunOnce()).output).not.toContain("Excessive alias count");
    const tag = await refused("tag.eval.yaml");
    expect(tag.output).toMatch(
      /tag\.eval\.yaml: a tag tooltrace does not resolve at line 2, column 17 \(tag:yaml\.org,2002:js\/function\)/,
    );
    expect(tag.output).toContain("Fix: remove the tag and write the value as plain YAML.");
    const big = await refused("big.eval.yaml");
    expect(big.output).toMatch(/big\.eval\.yaml: the file is 1\.1 MB; a YAML eval is read whole, up to 1 MB\./);
  });
});
