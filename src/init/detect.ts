import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { TooltraceError } from "../exits/errors.js";

/** The agent libraries `tooltrace init` writes a first eval for, most specific first. */
export type AgentLibrary = "agents-sdk" | "langchain" | "ai-sdk" | "openai" | "anthropic" | "plain";

/** The LangChain chat model packages the LangChain agent can use. */
export type LangchainModel = "@langchain/openai" | "@langchain/anthropic";

/** The test runner the first eval is written for. */
export type TestRunner = "vitest" | "jest";

/** What `init` found in the project's `package.json`. */
export interface Project {
  readonly library: AgentLibrary;
  /** The LangChain chat model package, for a LangChain project. */
  readonly langchainModel?: LangchainModel;
  /** Packages the library's agent imports that package.json does not list yet, for the user to add. */
  readonly missing: readonly string[];
  /** The project's dependencies and devDependencies, by name. */
  readonly dependencies: readonly string[];
  /** Other agent libraries the project has, for the summary. */
  readonly others: readonly AgentLibrary[];
  /** Jest when the project has `jest` and no `vitest`; Vitest otherwise. */
  readonly runner: TestRunner;
  /** Whether package.json has a `jest` key (Jest's config, when it has no config file). */
  readonly jestKey: boolean;
}

// Each library is found from any of its packages, the core one alone too: a project often adds the model
// package later.
const LIBRARIES: readonly (readonly [AgentLibrary, readonly string[]])[] = [
  ["agents-sdk", ["@openai/agents", "@openai/agents-core", "@openai/agents-openai"]],
  ["langchain", ["langchain", "@langchain/core", "@langchain/langgraph", "@langchain/openai", "@langchain/anthropic"]],
  ["ai-sdk", ["ai"]],
  ["openai", ["openai"]],
  ["anthropic", ["@anthropic-ai/sdk"]],
];

/** The packages each library's agent imports. */
function importedBy(library: AgentLibrary, langchainModel: LangchainModel): readonly string[] {
  switch (library) {
    case "agents-sdk":
      return ["@openai/agents"];
    case "langchain":
      return ["langchain", "@langchain/core", langchainModel];
    case "ai-sdk":
      return ["ai"];
    case "openai":
      return ["openai"];
    case "anthropic":
      return ["@anthropic-ai/sdk"];
    case "plain":
      return [];
  }
}

/** Reads the project's `package.json`; `undefined` when the folder has none. */
export function detectProject(folder: string): Project | undefined {
  const manifest = join(folder, "package.json");
  if (!existsSync(manifest)) return undefined;
  let parsed: Record<string, Record<string, string> | undefined>;
  try {
    parsed = JSON.parse(readFileSync(manifest, "utf8")) as Record<string, Record<string, string> | undefined>;
  } catch (error) {
    throw new TooltraceError(
      `init: ${manifest} is not valid JSON (${(error as Error).message}), so init cannot tell which agent library the project uses.`,
      "fix package.json (npm reads it the same way: `npm pkg get name` shows the error too), then run init again.",
    );
  }
  const deps = new Set([...Object.keys(parsed.dependencies ?? {}), ...Object.keys(parsed.devDependencies ?? {})]);
  const found = LIBRARIES.filter(([, names]) => names.some((name) => deps.has(name))).map(([library]) => library);
  const library = found[0] ?? "plain";
  // Claude through LangChain when that is what the project has; OpenAI otherwise.
  const anthropic = deps.has("@langchain/anthropic") || (deps.has("@anthropic-ai/sdk") && !deps.has("openai"));
  const langchainModel: LangchainModel = !deps.has("@langchain/openai") && anthropic ? "@langchain/anthropic" : "@langchain/openai";
  return {
    library,
    ...(library === "langchain" ? { langchainModel } : {}),
    missing: importedBy(library, langchainModel).filter((name) => !deps.has(name)),
    dependencies: [...deps],
    others: found.slice(1),
    runner: deps.has("jest") && !deps.has("vitest") ? "jest" : "vitest",
    jestKey: parsed.jest !== undefined,
  };
}
