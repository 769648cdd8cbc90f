import { join, sep } from "node:path";
import { packageRoot, runsFromBuild } from "../base/package-root.js";

/**
 * The agent libraries whose import in a test's code (the test file, the agent it imports) the plugin
 * hands a module of tooltrace's that is the library itself with the tools an agent defines inline caught:
 * `generateText({ tools })`, a LangChain `ToolNode`, an Agents SDK `tool()` inside the agent's function.
 */
const INLINE: Readonly<Record<string, string>> = {
  ai: "ai",
  langchain: "langchain",
  "@langchain/core/tools": "langchain-tools",
  "@langchain/langgraph/prebuilt": "langgraph-prebuilt",
  "@openai/agents": "agents-sdk",
};

/**
 * The module of tooltrace's for `id` imported by `importer`, or `undefined`: tooltrace's own modules (which
 * import the library itself) keep the library, as does any module under `node_modules`.
 */
export function inlineLibrary(id: string, importer: string | undefined): string | undefined {
  const name = INLINE[id];
  if (name === undefined || importer === undefined || importer.includes(`${sep}node_modules${sep}`)) return undefined;
  const root = packageRoot();
  if (["src", "dist", "matchers"].some((folder) => importer.startsWith(join(root, folder, sep)))) return undefined;
  return runsFromBuild() ? join(root, "dist", `inline-${name}.js`) : join(root, "src", "inline", `${name}.ts`);
}
