import type { Agent } from "../session/types.js";
import { cliAgent, type CliAgentOptions } from "./cli-agent.js";
import { packageBin } from "./claude-code.js";
import { lastFromJsonLines } from "./json-lines.js";

/** Options of {@link opencode}. */
export interface OpencodeOptions extends CliAgentOptions {
  /** The API OpenCode's provider speaks to the loopback server. Default `anthropic`. */
  readonly api?: "anthropic" | "openai-chat" | "openai-responses";
}

const PROVIDER_PACKAGES = {
  anthropic: "@ai-sdk/anthropic",
  "openai-chat": "@ai-sdk/openai-compatible",
  "openai-responses": "@ai-sdk/openai",
} as const;

/**
 * OpenCode (`opencode run`) as a session's agent: one non-interactive run per turn in a scratch folder with
 * its own home, its provider (built into OpenCode, nothing downloaded) pointed at a loopback server answering
 * from the session's model; its tool calls (`bash`, `read`, `write`, ...) are caught on the wire. The models
 * catalogue fetch and OpenCode's background npm install are switched off, so nothing leaves the machine.
 * Needs `opencode-ai` installed (1.18.33 is tested). A run takes several seconds of start-up.
 */
export function opencode(options: OpencodeOptions = {}): Agent<never> {
  const api = options.api ?? "anthropic";
  return cliAgent(
    {
      name: "opencode",
      command: (o) => o.command ?? packageBin("opencode-ai", "bin/opencode.exe"),
      // `--title` spares a side request for a session title; the prompt goes on stdin, since an argument with
      // spaces reaches the model wrapped in quotes.
      args: (_prompt, _url, _folders, o) => ["run", "--title", "tooltrace", "--format", "json", ...(o.args ?? [])],
      promptOnStdin: true,
      env: (url, folders, o) => ({
        HOME: folders.home,
        OPENCODE_DISABLE_MODELS_FETCH: "1",
        OPENCODE_DISABLE_PROJECT_CONFIG: "1",
        npm_config_offline: "true",
        OPENCODE_CONFIG_CONTENT: JSON.stringify({
          model: `tooltrace/${o.model ?? "mock-model"}`,
          provider: {
            tooltrace: {
              npm: PROVIDER_PACKAGES[api],
              name: "tooltrace",
              options: { baseURL: `${url}/v1`, apiKey: "sk-tooltrace-mock" },
              models: { [o.model ?? "mock-model"]: { name: "mock", tool_call: true } },
            },
          },
        }),
      }),
      answer: (stdout) =>
        lastFromJsonLines(stdout, (event) => {
          const text = (event.part as { text?: unknown } | undefined)?.text;
          return event.type === "text" && typeof text === "string" ? text : undefined;
        }),
    },
    options,
  );
}
