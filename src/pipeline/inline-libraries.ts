import { globalSingleton } from "../base/global-state.js";

/**
 * The agent libraries loaded with the tools an agent defines inline caught (`ai`, `langchain`, `@openai/agents`
 * through the plugin): a session given no tools may stub them and be strict about them.
 */
export const inlineLibrariesLoaded = globalSingleton("inlineLibrariesLoaded", () => new Set<string>());
