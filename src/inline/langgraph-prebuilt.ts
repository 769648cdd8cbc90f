/**
 * `@langchain/langgraph/prebuilt` as a test file's agent imports it under tooltrace's plugin: its `ToolNode` and
 * `createReactAgent`, with every tool's call in a session's turn going through the session's chain.
 *
 * @module tooltrace/inline/langgraph-prebuilt
 */
// biome-ignore lint/suspicious/noTsIgnore: LangChain is the user's, not tooltrace's: a git install builds without it.
// @ts-ignore
import { StructuredTool } from "@langchain/core/tools";
import { markInlineLibrary } from "./adopt-inline.js";
import { patchLangChainTools } from "./langchain-patch.js";

// biome-ignore lint/suspicious/noTsIgnore: LangChain is the user's, not tooltrace's: a git install builds without it.
// @ts-ignore
export * from "@langchain/langgraph/prebuilt";
patchLangChainTools(StructuredTool);
markInlineLibrary("@langchain/langgraph/prebuilt");
