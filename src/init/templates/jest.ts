import { type ModelRoute, weatherEval } from "./shared.js";

/** ts-jest's part of a config init writes: its preset, and the `moduleNameMapper` line its ESM mode may need. */
export interface JestConfigTransform {
  readonly preset: string;
  readonly mapper?: string | undefined;
}

/**
 * `jest.config.mjs` for a project with no Jest config: tooltrace's setup file and reporter, and ts-jest's preset
 * in a TypeScript project; Jest's defaults otherwise.
 */
export function jestConfig(transform?: JestConfigTransform): string {
  const mapper = transform?.mapper === undefined ? "" : `  // Imports of ./name.js that are ./name.ts files.\n  ${transform.mapper},\n`;
  const line =
    transform === undefined ? "" : `  // TypeScript test files, compiled and type-checked.\n  preset: "${transform.preset}",\n${mapper}`;
  return `/** @type {import("jest").Config} */
export default {
${line}  // tooltrace's matchers, and its checks after each test.
  setupFilesAfterEnv: ["tooltrace/jest"],
  // Each run's trace viewer, tooltrace-report/index.html (npx tooltrace show opens it).
  reporters: ["default", "tooltrace/jest-reporter"],
};
`;
}

/** How a Jest project runs the first eval: ES modules need Jest's ESM mode. */
export const JEST_RUN = "NODE_OPTIONS=--experimental-vm-modules npx jest evals";
/** How a ts-jest project in CommonJS runs it: no flags. */
export const JEST_CJS_RUN = "npx jest evals";

/**
 * The first eval as a Jest test in TypeScript, for ts-jest: the Vitest eval's body, on Jest's global `expect` and
 * `test` (typed by `@types/jest`), with tooltrace's matchers typed by a type-only import of `tooltrace/jest` (the
 * setup file registers them when Jest runs).
 */
export function jestTsEval(route: ModelRoute, extension: "" | ".js"): string {
  const head = `// tooltrace's matchers on Jest's \`expect\`, for TypeScript (tooltrace/jest, the setup file, registers them).
import type {} from "tooltrace/jest";`;
  return weatherEval(route, { head, specifier: (name) => `./${name}${extension}` });
}

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
