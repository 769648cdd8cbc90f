#!/usr/bin/env node
/**
 * `npx tooltrace init`: the plugin in the project's Vitest config (tooltrace/jest in a Jest project) and a first eval.
 * `npx tooltrace show <report> [--no-open]`: prints the viewer page's path and opens it.
 * `npx tooltrace show --serve <report> [--no-open]`: serves it on 127.0.0.1 (updated when the report changes).
 * `npx tooltrace show --compare <baseline> <current> [--markdown] [--fail-on-regression] [--no-open]`: two runs compared.
 * `npx tooltrace merge <report>... [--out=<folder>] [--json[=file]] [--junit[=file]]`: shards' reports as one.
 * `npx tooltrace cassettes check [vitest args]`: every cassette entry recorded for a request the code no longer sends.
 * `npx tooltrace mcp serve <file> [--http[=port]]`: a file's tools and stub rules as an MCP server.
 */
import { packageVersion } from "../base/package-root.js";
import { PREFIX } from "../exits/errors.js";
import { printOut } from "../exits/out.js";
import { mcpServeCommand } from "../agents/mcp-serve-command.js";
import { init } from "../init/init.js";
import { cassettesCheck } from "../report/cassettes-check.js";
import { compareCommand } from "../report/compare-command.js";
import { mergeCommand } from "../report/merge-command.js";
import { openPage, show } from "../report/show.js";
import { suggestName } from "../stubs/suggest.js";

const USAGE = [
  "usage: tooltrace init",
  "       tooltrace show <report folder | index.html | report JSON | turn JSON> [--no-open]",
  "       tooltrace show --serve <report folder | index.html | report JSON> [--no-open]",
  "       tooltrace show --compare <baseline> <current> [--markdown] [--fail-on-regression] [--no-open]",
  "       tooltrace merge <report folder | index.html | report JSON>... [--out=<folder>] [--json[=file]] [--junit[=file]]",
  "       tooltrace cassettes check [vitest arguments]",
  "       tooltrace mcp serve <tools and stubs file> [--http[=port]]",
  "       tooltrace --help | --version",
  "",
].join("\n");
const HELP = ["--help", "-h", "help"];
const [command, ...rest] = process.argv.slice(2);
const flags = rest.filter((arg) => arg.startsWith("--"));
const targets = rest.filter((arg) => !arg.startsWith("--"));
try {
  if (command !== undefined && HELP.includes(command)) printOut("command output", USAGE, "stdout");
  else if (command === "--version" || command === "-v") printOut("command output", packageVersion(), "stdout");
  else if (command === "init" && rest.length > 0) initOption(rest[0] as string);
  else if (command === "init") {
    const report = await init(process.cwd());
    printOut("command output", report.lines.join("\n"), "stdout");
    if (!report.ok) process.exitCode = 1;
  } else if (command === "show" && flags.includes("--compare") && targets.length === 2) {
    const [baseline, current] = targets as [string, string];
    const markdown = flags.includes("--markdown");
    const result = compareCommand(baseline, current, { markdown });
    printOut("command output", result.output, "stdout");
    if (!markdown && !flags.includes("--no-open")) openPage(result.output);
    if (result.regressed && flags.includes("--fail-on-regression")) process.exitCode = 1;
  } else if (command === "merge" && flags.every((flag) => /^--(out=.+|json(=.+)?|junit(=.+)?)$/.test(flag))) {
    const value = (name: string, fallback?: string) => {
      const flag = flags.find((given) => given === `--${name}` || given.startsWith(`--${name}=`));
      return flag === undefined ? undefined : flag.includes("=") ? flag.slice(name.length + 3) : fallback;
    };
    const out = value("out");
    const json = value("json", "tooltrace-turns.json");
    const junit = value("junit", "tooltrace-junit.xml");
    const result = mergeCommand(targets, {
      ...(out !== undefined ? { outputDir: out } : {}),
      ...(json !== undefined ? { json } : {}),
      ...(junit !== undefined ? { junit } : {}),
    });
    printOut("command output", result.line, "stdout");
  } else if (command === "cassettes" && rest[0] === "check") {
    const result = cassettesCheck(process.cwd(), rest.slice(1));
    printOut("command output", result.output, "stdout");
    if (result.stale.length > 0 || result.code !== 0) process.exitCode = 1;
  } else if (command === "mcp" && rest[0] === "serve" && targets.length === 2) {
    // Stdout is the protocol over stdio: only a failure is written, to stderr.
    mcpServeCommand(targets[1] as string, flags).catch((error: unknown) => {
      printOut("command output", error instanceof Error ? error.message : String(error), "stderr");
      process.exitCode = 1;
    });
  } else if (command === "show" && targets.length === 1 && flags.includes("--serve") && !flags.includes("--compare")) {
    const { serveReport } = await import("../report/serve-report.js");
    await serveReport(targets[0] as string, !flags.includes("--no-open"));
  } else if (command === "show" && targets.length === 1 && !flags.includes("--compare")) {
    printOut("command output", show(targets[0] as string, !flags.includes("--no-open")), "stdout");
  } else {
    printOut("command output", `${unknownCommand(command)}${USAGE}`, "stderr");
    process.exitCode = 2;
  }
} catch (error) {
  printOut("command output", error instanceof Error ? error.message : String(error), "stderr");
  process.exitCode = 1;
}

/** The line before the usage when the command is not one of tooltrace's (none when no command was given). */
function unknownCommand(given: string | undefined): string {
  const commands = ["init", "show", "merge", "cassettes", "mcp"];
  if (given === undefined || commands.includes(given)) return "";
  const near = suggestName(given, new Set(commands));
  return `${PREFIX} unknown command ${JSON.stringify(given)}${near === undefined ? "" : `; did you mean "${near}"?`}\n`;
}

/** `tooltrace init` with an argument: help or the version, or a refusal that names the argument (nothing written). */
function initOption(option: string): void {
  if (HELP.includes(option)) printOut("command output", USAGE, "stdout");
  else if (option === "--version") printOut("command output", packageVersion(), "stdout");
  else {
    const what = option.startsWith("-") ? "unknown option" : "unexpected argument";
    printOut("command output", `${PREFIX} init: ${what} ${option}: init takes none (see tooltrace --help).`, "stderr");
    process.exitCode = 2;
  }
}
