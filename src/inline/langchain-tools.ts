/**
 * `@langchain/core/tools` as a test file's agent imports it under tooltrace's plugin: LangChain's tools, whose
 * calls in a session's turn go through the session's chain wherever the tool was made.
 *
 * @module tooltrace/inline/langchain-tools
 */
// biome-ignore lint/suspicious/noTsIgnore: LangChain is the user's, not tooltrace's: a git install builds without it.
// @ts-ignore
import { StructuredTool } from "@langchain/core/tools";
import { markInlineLibrary } from "./adopt-inline.js";
import { patchLangChainTools } from "./langchain-patch.js";

// biome-ignore lint/suspicious/noTsIgnore: LangChain is the user's, not tooltrace's: a git install builds without it.
// @ts-ignore
export * from "@langchain/core/tools";
patchLangChainTools(StructuredTool);
markInlineLibrary("@langchain/core/tools");
