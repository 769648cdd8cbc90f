import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { StubConfigError } from "../errors.js";
import { globalSingleton } from "../global-state.js";
import { Redactor } from "./redact.js";
import type { CassetteFile, CassetteHttpEntry, CassetteMode, CassetteOptions, CassetteToolEntry } from "./types.js";

const VERSION = 1;
const defaults = globalSingleton("cassetteDefaults", () => ({ mode: undefined as CassetteMode | undefined }));

/** The plugin's cassette mode for every session (below `TOOLTRACE_CASSETTE` and a session's own). */
export function useCassetteMode(mode: CassetteMode | undefined): void {
  defaults.mode = mode;
}

/** Where a session's cassette lives by default: beside the test file, one file per test and session. */
export function defaultCassettePath(testPath: string, testName: string, sessionName: string): string {
  const slug = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 120) || "unnamed";
  return join(dirname(testPath), "__cassettes__", basename(testPath), `${slug(testName)}.${slug(sessionName)}.json`);
}

/**
 * One session's cassette: in replay, per-tool and per-request queues read from the file, consumed in order
 * (so a reordering between different tools still replays); in record, what the real tools and the network
 * returned, redacted and written atomically when the session closes.
 */
export class Cassette {
  readonly replaying: boolean;
  readonly redactor: Redactor;
  private readonly tools = new Map<string, CassetteToolEntry[]>();
  private readonly http = new Map<string, CassetteHttpEntry[]>();
  private readonly cursors = new Map<string, number>();
  private count = 0;

  private constructor(
    readonly path: string,
    mode: "record" | "replay",
    options: CassetteOptions,
  ) {
    this.replaying = mode === "replay";
    this.redactor = new Redactor(options.redact);
    if (this.replaying) this.load();
  }

  /** The session's cassette, or `undefined` when the mode is `off`. Refuses a replay without a file. */
  static open(options: CassetteOptions | undefined, defaultPath: () => string | undefined): Cassette | undefined {
    const mode = options?.mode ?? envMode() ?? defaults.mode ?? "off";
    if (mode === "off") return undefined;
    const path = options?.path ?? defaultPath();
    // The run's mode (environment, plugin) applies to sessions inside tests; one outside a test must ask.
    if (path === undefined && options?.mode === undefined) return undefined;
    if (path === undefined) throw new StubConfigError({ pointer: "" }, "a session outside a test has no default cassette path.", "give one: `cassette: { path: \"./cassettes/support.json\" }`.", "session");
    const exists = existsSync(path);
    if (mode === "replay" && !exists) {
      throw new StubConfigError({ pointer: "" }, `cassette mode is replay, and ${path} does not exist.`, "record it once: TOOLTRACE_CASSETTE=record npx vitest run <this test file>.", "session");
    }
    return new Cassette(path, mode === "auto" ? (exists ? "replay" : "record") : mode, options ?? {});
  }

  /** The next recorded call of `tool`, and its position in the tool's queue. */
  nextTool(tool: string): { entry: CassetteToolEntry; index: number } | undefined {
    return this.next(this.tools, `tool ${tool}`, tool);
  }

  nextHttp(key: string): { entry: CassetteHttpEntry; index: number } | undefined {
    return this.next(this.http, `http ${key}`, key);
  }

  recordTool(tool: string, entry: CassetteToolEntry): void {
    push(this.tools, tool, entry);
    this.count += 1;
  }

  recordHttp(key: string, entry: CassetteHttpEntry): void {
    push(this.http, key, entry);
    this.count += 1;
  }

  /** The recorded names closest to `name`, for a message about a call the cassette does not hold. */
  recordedTools(): string[] {
    return [...this.tools.keys()];
  }

  recordedRequests(): string[] {
    return [...this.http.keys()];
  }

  /** Writes what was recorded: to a temporary file, then renamed over the cassette, so a crash never leaves half a file. */
  save(): void {
    if (this.replaying) return;
    const file: CassetteFile = { version: VERSION, tools: sortedRecord(this.tools), http: sortedRecord(this.http) };
    mkdirSync(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.${process.pid}.${Date.now()}.tmp`;
    try {
      writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`);
      renameSync(temporary, this.path);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
  }

  get recordedCount(): number {
    return this.count;
  }

  private load(): void {
    let file: Partial<CassetteFile>;
    try {
      file = JSON.parse(readFileSync(this.path, "utf8")) as Partial<CassetteFile>;
    } catch (error) {
      throw new StubConfigError({ pointer: "" }, `cassette ${this.path} is not readable JSON (${(error as Error).message}).`, "record it again: TOOLTRACE_CASSETTE=record npx vitest run <this test file>.", "session");
    }
    if (file.version !== VERSION) {
      throw new StubConfigError({ pointer: "" }, `cassette ${this.path} has version ${JSON.stringify(file.version)}; this tooltrace reads version ${VERSION}.`, "record it again: TOOLTRACE_CASSETTE=record npx vitest run <this test file>.", "session");
    }
    for (const [tool, entries] of Object.entries(file.tools ?? {})) this.tools.set(tool, [...entries]);
    for (const [key, entries] of Object.entries(file.http ?? {})) this.http.set(key, [...entries]);
  }

  private next<T>(queues: Map<string, T[]>, cursorKey: string, key: string): { entry: T; index: number } | undefined {
    const index = this.cursors.get(cursorKey) ?? 0;
    const entry = queues.get(key)?.[index];
    if (entry === undefined) return undefined;
    this.cursors.set(cursorKey, index + 1);
    return { entry, index };
  }
}

function envMode(): CassetteMode | undefined {
  const value = process.env.TOOLTRACE_CASSETTE;
  if (value === undefined || value === "") return undefined;
  if (value === "record" || value === "replay" || value === "auto" || value === "off") return value;
  throw new StubConfigError({ pointer: "" }, `TOOLTRACE_CASSETTE=${value} is not a cassette mode.`, "use record, replay, auto or off.", "session");
}

function push<T>(map: Map<string, T[]>, key: string, entry: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [entry]);
  else list.push(entry);
}

function sortedRecord<T>(map: Map<string, T[]>): Record<string, T[]> {
  return Object.fromEntries([...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
