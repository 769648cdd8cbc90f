/**
 * Added by `tooltrace({ llm })` before the main setup file: starts the LLM wire mock before the test file's
 * modules load, so SDK clients created at import time use the intercepted `fetch`, and closes it after the file.
 */
import * as vitest from "vitest";
import { withPeer } from "../base/optional-peer.js";
import type { TooltracePluginOptions } from "./options.js";

const options = (vitest.inject("tooltrace") as TooltracePluginOptions | undefined)?.llm;
const { startLlmServer } = await withPeer("msw", "tooltrace({ llm })", () => import("../catchers/msw-server.js"));
const server = startLlmServer(typeof options === "object" ? options : {});
vitest.afterAll(() => server.close());
