import { existsSync } from "node:fs";
import { message, StubConfigError } from "../exits/errors.js";
import { globalSingleton } from "../base/global-state.js";
import { runOptionName } from "../base/runner-form.js";
import type { CassetteMode, CassetteOptions } from "./types.js";
import type { CassetteWriter } from "./writers.js";
import { rerecordCommand } from "./rerecord.js";
import { noteForCheck } from "./stale.js";
import { printOut } from "../exits/out.js";

const MODES: readonly CassetteMode[] = ["record", "replay", "auto", "off"];
const defaults = globalSingleton("cassetteDefaults", () => ({ mode: undefined as CassetteMode | undefined }));

/** The plugin's cassette mode for every session (below `TOOLTRACE_CASSETTE` and a session's own). */
export function useCassetteMode(mode: CassetteMode | undefined): void {
  defaults.mode = mode;
}

/**
 * Where a session's cassette is and whether it records or replays: the session's `record`, `replay` or `off`,
 * else `TOOLTRACE_CASSETTE` (a session's `auto` yields to it, so `TOOLTRACE_CASSETTE=record` records it again),
 * else the session's `auto`, else the plugin's mode; `undefined` when it has none (`off`). Refuses a replay
 * without a file, and a strict session that `auto` would have record.
 */
export function resolveCassette(
  options: CassetteOptions | undefined,
  defaultPath: () => string | undefined,
  writer: CassetteWriter,
): { readonly path: string; readonly mode: "record" | "replay" } | undefined {
  if (options?.replay !== undefined) checkPrefix(options);
  const own = options?.mode ?? (options?.replay ? "replay" : undefined);
  const env = envMode();
  const mode = (own === "auto" ? env : undefined) ?? own ?? env ?? defaults.mode ?? "off";
  if (env === "record" && mode !== "record")
    printOut(
      "console",
      message(
        `TOOLTRACE_CASSETTE=record does not apply to ${writer.description}: its cassette mode is ${JSON.stringify(mode)}. Set \`cassette: { mode: "auto" }\` (or drop its mode) to record it from the command line.`,
      ),
    );
  if (!MODES.includes(mode)) {
    throw new StubConfigError(
      { pointer: "" },
      `cassette mode ${JSON.stringify(mode)} is not one of ${MODES.join(", ")}.`,
      `fix \`cassette.mode\` (or ${runOptionName("cassette")}).`,
      "session",
    );
  }
  if (mode === "off") return undefined;
  const path = options?.path ?? defaultPath();
  // The run's mode (environment, plugin) applies to sessions inside tests; one outside a test must ask.
  if (path === undefined && options?.mode === undefined) return undefined;
  if (path === undefined)
    throw new StubConfigError(
      { pointer: "" },
      "a session outside a test has no default cassette path.",
      'give one: `cassette: { path: "./cassettes/support.json" }`.',
      "session",
    );
  const exists = existsSync(path);
  if (mode === "replay" && !exists) {
    throw new StubConfigError(
      { pointer: "" },
      `cassette mode is replay, and ${path} does not exist.`,
      "record it once: TOOLTRACE_CASSETTE=record npx vitest run <this test file>.",
      "session",
    );
  }
  // `npx tooltrace cassettes check` records nothing: a missing cassette is a finding, not a recording.
  if (process.env.TOOLTRACE_STALE_REPORT && (mode === "record" || !exists)) {
    noteForCheck({
      cassette: path,
      entry: exists ? "the whole cassette (its session records it)" : "the whole cassette",
      changes: [exists ? "+ mode record: a check records nothing" : "- (never recorded: the file does not exist)"],
      rerecord: rerecordCommand(writer, options?.mode),
    });
    throw new StubConfigError(
      { pointer: "" },
      exists ? `cassette ${path} is recorded by this session (mode record): a check records nothing.` : `cassette ${path} does not exist.`,
      "record it once: TOOLTRACE_CASSETTE=record npx vitest run <this test file>.",
      "session",
    );
  }
  const resolved = mode === "auto" ? (exists ? "replay" : "record") : mode;
  if (mode === "auto" && resolved === "record" && writer.strict) {
    throw new StubConfigError(
      { pointer: "/cassette/mode" },
      `${writer.description} is strict, and its cassette mode is auto with no file at ${path}: auto would record, running the real tools and network.`,
      'record it on purpose (TOOLTRACE_CASSETTE=record npx vitest run <this test file>, or `cassette: { mode: "record" }`), or check the path: renaming a test or session renames its cassette.',
      "session",
    );
  }
  return { path, mode: resolved };
}

function checkPrefix(options: CassetteOptions): void {
  const upTo = options.replay?.upTo;
  if (typeof upTo !== "number" || !Number.isSafeInteger(upTo) || upTo < 0) {
    throw new StubConfigError(
      { pointer: "/cassette/replay/upTo" },
      `cassette.replay.upTo must be a whole number of model exchanges, got ${JSON.stringify(upTo)}.`,
      "give the number of exchanges to replay before going live, e.g. `replay: { upTo: 3 }`.",
      "session",
    );
  }
  if (options.mode !== undefined && options.mode !== "replay") {
    throw new StubConfigError(
      { pointer: "/cassette/replay" },
      `cassette.replay replays a prefix, and cassette.mode is ${JSON.stringify(options.mode)}.`,
      "drop `mode` (replay is implied) or drop `replay`.",
      "session",
    );
  }
}

function envMode(): CassetteMode | undefined {
  const value = process.env.TOOLTRACE_CASSETTE;
  if (value === undefined || value === "") return undefined;
  if ((MODES as readonly string[]).includes(value)) return value as CassetteMode;
  throw new StubConfigError(
    { pointer: "" },
    `TOOLTRACE_CASSETTE=${value} is not a cassette mode.`,
    "use record, replay, auto or off.",
    "session",
  );
}
