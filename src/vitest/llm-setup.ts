/**
 * Added by `tooltrace({ llm })` after the main setup file: the run's wire mock answers every LLM API request
 * (the providers' own hosts, and `baseUrls`) from the session's `llm`, or "Mock response" outside sessions,
 * under `fetch`, so SDK clients made at import time are answered too. No MSW starts. Built, it loads the
 * CommonJS build of its core, which shares the modules the main setup file loaded; from the sources, the modules.
 */
import { createRequire } from "node:module";
import * as vitest from "vitest";
import type { RunWireOptions } from "../catchers/fetch-wire.js";
import type { TooltracePluginOptions } from "./options.js";

type Core = { answerLlmForTheRun(options: RunWireOptions): void };

const options = (vitest.inject("tooltrace") as TooltracePluginOptions | undefined)?.llm;
const own = typeof options === "object" ? options : {};
const core: Core = import.meta.url.endsWith(".ts")
  ? await import("./llm-setup-core.js")
  : (createRequire(import.meta.url)("./vitest-llm-setup-core.cjs") as Core);
core.answerLlmForTheRun({
  ...(own.baseUrls !== undefined ? { baseUrls: own.baseUrls } : {}),
  ...(own.models !== undefined ? { models: own.models } : {}),
});
