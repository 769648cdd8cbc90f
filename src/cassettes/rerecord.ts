import { relative } from "node:path";
import type { CassetteMode } from "./types.js";
import type { CassetteWriter } from "./writers.js";

/**
 * The command that records one test's cassettes again, and no other: `TOOLTRACE_CASSETTE=record npx vitest run
 * <file> -t '<test>'`. Vitest's `-t` is a regular expression over the test's names joined by spaces (a
 * `describe`'s name, then the test's); a session whose mode is `replay` ignores the variable, so it says so.
 */
export function rerecordCommand(writer: CassetteWriter, mode: CassetteMode | undefined): string {
  const file = writer.file === undefined ? "<its test file>" : relative(process.cwd(), writer.file) || writer.file;
  const pattern =
    writer.testName === undefined
      ? ""
      : ` -t '${writer.testName
          .split(" > ")
          .join(" ")
          .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
          .replaceAll("'", "'\\''")}'`;
  const command = `TOOLTRACE_CASSETTE=record npx vitest run ${file}${pattern}`;
  return mode === "replay" ? `set its session's \`cassette.mode\` to "auto" (it is "replay"), then ${command}` : command;
}
