/** The files `tooltrace init` writes, by path under the project. */
export type InitFiles = Readonly<Record<string, string>>;

/** How a library's eval hands the model to its agent: the wire (a session's `llm`), an AI SDK model object, or none. */
export type ModelRoute = "wire" | "ai-sdk" | "none";

export const STAND_IN = `// A stand-in for your agent: point the evals at your own agent and tools instead. Its real weather service is
// never called in these evals: a stub rule answers the tool, and a scripted model stands in for the LLM.`;

/** The scripted model: one tool call, then an answer from what the tool returned (true on every turn). */
export const WEATHER_MODEL = `import type { MockModelReply, MockModelRequest } from "tooltrace";

/** The model, scripted: it asks for the weather, then answers from the tool result that came since it last spoke. */
export function weatherModel({ newToolResults }: MockModelRequest): MockModelReply {
  const result = newToolResults[0];
  if (result === undefined) return { toolCalls: [{ name: "get_weather", input: { city: "Paris" } }] };
  return \`In Paris it is \${(result.output as { tempC: number }).tempC}°C.\`;
}
`;

/** The first eval: the agent asked for the weather, its tool stubbed, the calls and the answer checked. */
export function weatherEval(route: ModelRoute): string {
  const imports =
    route === "ai-sdk"
      ? `import { createSession, mockModel, type ToolStub } from "tooltrace";\nimport { tools, weatherAgent } from "./weather-agent.js";`
      : `import { createSession, type ToolStub } from "tooltrace";\nimport { tools, weatherAgent } from "./weather-agent.js";`;
  const session =
    route === "ai-sdk"
      ? "const agent = (message: string) => weatherAgent(mockModel(weatherModel), message);\n  const session = createSession({ agent, tools, stubs });"
      : route === "wire"
        ? "const session = createSession({ agent: weatherAgent, tools, stubs, llm: weatherModel });"
        : "const session = createSession({ agent: weatherAgent, tools, stubs });";
  return `import { expect, test } from "vitest";
${imports}${route === "none" ? "" : '\nimport { weatherModel } from "./weather-model.js";'}

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
