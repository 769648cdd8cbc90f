/**
 * `langchain` as a test file's agent imports it under tooltrace's plugin: LangChain (its `createAgent`, its
 * `tool`), with every tool's call in a session's turn going through the session's chain.
 *
 * @module tooltrace/inline/langchain
 */
// biome-ignore lint/suspicious/noTsIgnore: LangChain is the user's, not tooltrace's: a git install builds without it.
// @ts-ignore
import { StructuredTool } from "@langchain/core/tools";
import { markInlineLibrary } from "./adopt-inline.js";
import { patchLangChainTools } from "./langchain-patch.js";

// biome-ignore lint/suspicious/noTsIgnore: LangChain is the user's, not tooltrace's: a git install builds without it.
// @ts-ignore
export * from "langchain";
patchLangChainTools(StructuredTool);
markInlineLibrary("langchain");
