import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { TooltraceError } from "../exits/errors.js";

/** The agent libraries `tooltrace init` writes a first eval for, most specific first. */
export type AgentLibrary = "agents-sdk" | "langchain" | "ai-sdk" | "openai" | "anthropic" | "plain";

/** What `init` found in the project's `package.json`. */
export interface Project {
  readonly library: AgentLibrary;
  /** The LangChain chat model package, for a LangChain project. */
  readonly langchainModel?: "@langchain/openai" | "@langchain/anthropic";
  /** Other agent libraries the project has, for the summary. */
  readonly others: readonly AgentLibrary[];
}

const LIBRARIES: readonly [AgentLibrary, (deps: Set<string>) => boolean][] = [
  ["agents-sdk", (deps) => deps.has("@openai/agents")],
  [
    "langchain",
    (deps) => (deps.has("langchain") || deps.has("@langchain/core")) && (deps.has("@langchain/openai") || deps.has("@langchain/anthropic")),
  ],
  ["ai-sdk", (deps) => deps.has("ai")],
  ["openai", (deps) => deps.has("openai")],
  ["anthropic", (deps) => deps.has("@anthropic-ai/sdk")],
];

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
  const found = LIBRARIES.filter(([, present]) => present(deps)).map(([library]) => library);
  const library = found[0] ?? "plain";
  return {
    library,
    ...(library === "langchain" ? { langchainModel: deps.has("@langchain/openai") ? "@langchain/openai" : "@langchain/anthropic" } : {}),
    others: found.slice(1),
  };
}
