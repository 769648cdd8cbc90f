/**
 * Added by `tooltrace({ llm })` after the main setup file: the run's wire mock answers every LLM API request
 * (the providers' own hosts, and `baseUrls`) from the session's `llm`, or "Mock response" outside sessions,
 * under `fetch`, so SDK clients made at import time are answered too. No MSW starts.
 */
import * as vitest from "vitest";
import { answerLlmForTheRun } from "../catchers/fetch-wire.js";
import type { TooltracePluginOptions } from "./options.js";

const options = (vitest.inject("tooltrace") as TooltracePluginOptions | undefined)?.llm;
const own = typeof options === "object" ? options : {};
answerLlmForTheRun({
  ...(own.baseUrls !== undefined ? { baseUrls: own.baseUrls } : {}),
  ...(own.models !== undefined ? { models: own.models } : {}),
});
