/**
 * tooltrace/cli: CLI agents (Claude Code, Codex, OpenCode, Gemini CLI) as a session's agent. Each run happens in a scratch
 * folder, pointed at a loopback server that answers from the session's model; every tool call in the
 * model's replies goes through the session's chain before the CLI sees it.
 *
 * @module tooltrace/cli
 */
export { claudeCode, type ClaudeCodeOptions } from "./claude-code.js";
export { cliAgent, type CliAgentOptions, type CliRunFolders, type CliSpec } from "./cli-agent.js";
export { codex, type CodexOptions } from "./codex.js";
export { opencode, type OpencodeOptions } from "./opencode.js";
export { geminiCli, type GeminiCliOptions } from "./gemini-cli.js";
