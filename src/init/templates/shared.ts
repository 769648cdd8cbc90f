/** The files `tooltrace init` writes, by path under the project. */
export type InitFiles = Readonly<Record<string, string>>;

/** How a library's eval hands the model to its agent: the wire (a session's `llm`), an AI SDK model object, or none. */
export type ModelRoute = "wire" | "ai-sdk" | "none";

/** The language of the files init writes: TypeScript for Vitest and ts-jest, JavaScript modules for Jest otherwise. */
export type SourceLanguage = "ts" | "js";

/** Keeps a TypeScript-only fragment (a type annotation, `as const`) in TypeScript, and drops it in JavaScript. */
export function typed(lang: SourceLanguage): (fragment: string) => string {
  return (fragment) => (lang === "ts" ? fragment : "");
}

/** The tool's body in every agent: the stand-in service is never reached in an eval. */
export const UNREACHABLE = "throw new Error(`the weather service is not reachable from tests (asked for ${city})`);";
/** The key line each wire agent has, true in a tooltrace run. */
export const ANY_KEY = "// Any key: in a tooltrace run the session's scripted model answers on the wire.";

/** The header of the agent file: what in the evals stands in for the real services, true for the route. */
export function standIn(route: ModelRoute): string {
  const model = route === "none" ? "" : ", and a scripted model stands in for the LLM";
  return `// A stand-in for your agent: point the evals at your own agent and tools instead. Its real weather service is
// never called in these evals: a stub rule answers the tool${model}.`;
}

/** The scripted model: one tool call, then an answer from what the tool returned (true on every turn). */
export function weatherModelFile(lang: SourceLanguage): string {
  const t = typed(lang);
  const output = lang === "ts" ? "(result.output as { tempC: number }).tempC" : "result.output.tempC";
  return `${t('import type { MockModelReply, MockModelRequest } from "tooltrace";\n\n')}/** The model, scripted: it asks for the weather, then answers from the tool result that came since it last spoke. */
export function weatherModel({ newToolResults }${t(": MockModelRequest")})${t(": MockModelReply")} {
  const result = newToolResults[0];
  if (result === undefined) return { toolCalls: [{ name: "get_weather", input: { city: "Paris" } }] };
  return \`In Paris it is \${${output}}°C.\`;
}
`;
}

/** Where the eval's test functions come from, and how it names its agent's and model's modules. */
export interface EvalHead {
  /** The lines before tooltrace's import. */
  readonly head: string;
  /** The specifier of the module `name` beside the eval. */
  readonly specifier: (name: string) => string;
}

const VITEST_HEAD: EvalHead = { head: 'import { expect, test } from "vitest";', specifier: (name) => `./${name}.js` };

/**
 * The first eval: the agent asked for the weather, its tool stubbed, the calls and the answer checked. In
 * Vitest, or with another runner's `head` (ts-jest's).
 */
export function weatherEval(route: ModelRoute, { head, specifier }: EvalHead = VITEST_HEAD): string {
  const agent = `import { tools, weatherAgent } from "${specifier("weather-agent")}";`;
  const imports =
    route === "ai-sdk"
      ? `import { createSession, mockModel, type ToolStub } from "tooltrace";\n${agent}`
      : `import { createSession, type ToolStub } from "tooltrace";\n${agent}`;
  const session =
    route === "ai-sdk"
      ? "const agent = (message: string) => weatherAgent(mockModel(weatherModel), message);\n  const session = createSession({ agent, tools, stubs });"
      : route === "wire"
        ? "const session = createSession({ agent: weatherAgent, tools, stubs, llm: weatherModel });"
        : "const session = createSession({ agent: weatherAgent, tools, stubs });";
  const model = route === "none" ? "" : `\nimport { weatherModel } from "${specifier("weather-model")}";`;
  return `${head}
${imports}${model}

// The tool's answer: a stub rule (JSON, first match wins). Nothing leaves the machine in a tooltrace run.
const stubs = [
  { id: "paris", tool: "get_weather", match: { city: { const: "Paris" } }, outcome: { response: { tempC: 21 } } },
] satisfies ToolStub[];

test("answers with the weather its tool returned", async () => {
  ${session}
  const turn = await session.send("What is the weather in Paris?");
  expect(turn).toHaveCalledTool("get_weather", { input: { city: "Paris" }, count: 1 });
  expect(turn).toHaveMessageIncluding("21°C");
});
`;
}

/** The same eval in evalview's YAML schema, and the module that builds its agent. */
export function yamlEval(route: ModelRoute): InitFiles {
  const agent = route === "ai-sdk" ? "(message: string) => weatherAgent(mockModel(weatherModel), message)" : "weatherAgent";
  const setup = route === "wire" ? `{ agent: ${agent}, tools, llm: weatherModel }` : `{\n  agent: ${agent},\n  tools,\n}`;
  return {
    "evals/weather.eval.yaml": `# The first eval again, in evalview's YAML schema: Vitest runs each case as a test.
name: weather-in-paris
agent: ./weather-yaml-agent.ts
input:
  query: What is the weather in Paris?
expected:
  tools: [get_weather]
  output:
    contains: ["21°C"]
mocks:
  tool_mocks:
    - tool: get_weather
      match_params: { city: Paris }
      returns: { tempC: 21 }
`,
    "evals/weather-yaml-agent.ts": `import { defineEvalAgent${route === "ai-sdk" ? ", mockModel" : ""} } from "tooltrace";
import { tools, weatherAgent } from "./weather-agent.js";${route === "none" ? "" : '\nimport { weatherModel } from "./weather-model.js";'}

// The agent a YAML case runs against: its tool mocks come from the YAML file.
export default defineEvalAgent(() => (${setup}));
`,
  };
}
