import type { ModelRoute } from "./shared.js";

/** `jest.config.mjs` for a project with no Jest config: tooltrace's setup file and reporter, Jest's defaults otherwise. */
export const JEST_CONFIG = `/** @type {import("jest").Config} */
export default {
  // tooltrace's matchers, and its checks after each test.
  setupFilesAfterEnv: ["tooltrace/jest"],
  // Each run's trace viewer, tooltrace-report/index.html (npx tooltrace show opens it).
  reporters: ["default", "tooltrace/jest-reporter"],
};
`;

/** How a Jest project runs the first eval: ES modules need Jest's ESM mode. */
export const JEST_RUN = "NODE_OPTIONS=--experimental-vm-modules npx jest evals";

/**
 * The first eval as a Jest test, in JavaScript (Jest runs TypeScript only through a transform the project may
 * not have): the agent asked for the weather, its tool stubbed, the calls and the answer checked.
 */
export function jestEval(route: ModelRoute): string {
  const tooltrace = route === "ai-sdk" ? "createSession, mockModel" : "createSession";
  const imports = [
    `import { ${tooltrace} } from "tooltrace";`,
    'import { tools, weatherAgent } from "./weather-agent.mjs";',
    ...(route === "none" ? [] : ['import { weatherModel } from "./weather-model.mjs";']),
  ];
  const session =
    route === "ai-sdk"
      ? "const agent = (message) => weatherAgent(mockModel(weatherModel), message);\n  const session = createSession({ agent, tools, stubs });"
      : route === "wire"
        ? "// The scripted model answers the agent's client on the wire: nothing reaches the provider.\n  const session = createSession({ agent: weatherAgent, tools, stubs, llm: weatherModel });"
        : "const session = createSession({ agent: weatherAgent, tools, stubs });";
  return `${imports.join("\n")}

// The tool's answer: a stub rule (JSON, first match wins).
const stubs = [
  { id: "paris", tool: "get_weather", match: { city: { const: "Paris" } }, outcome: { response: { tempC: 21 } } },
];

test("answers with the weather its tool returned", async () => {
  ${session}
  const turn = await session.send("What is the weather in Paris?");
  expect(turn).toHaveCalledTool("get_weather", { input: { city: "Paris" }, count: 1 });
  expect(turn).toHaveMessageIncluding("21°C");
});
`;
}
