import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { threadId } from "node:worker_threads";
import { basename, dirname, join, resolve } from "node:path";
import { StubConfigError } from "../base/errors.js";
import { globalSingleton } from "../base/global-state.js";
import { Redactor } from "../secrets/redactor.js";
import type { CassetteFile, CassetteHttpEntry, CassetteMode, CassetteModelEntry, CassetteOptions, CassetteToolEntry } from "./types.js";

const VERSION = 1;
const MODES: readonly CassetteMode[] = ["record", "replay", "auto", "off"];
const defaults = globalSingleton("cassetteDefaults", () => ({ mode: undefined as CassetteMode | undefined }));
/** The cassettes recorded in this test file's run so far, and by whom: two writers of one file would lose one's recording. */
const writers = globalSingleton("cassetteWriters", () => new Map<string, CassetteWriter>());

/** Who opens a cassette: a session, by its test and its place in that test (a retry of the test is the same writer). */
export interface CassetteWriter {
  /** `session 1 of test "refunds"`, for messages. */
  readonly description: string;
  /** The test (its task; its name where there is no task), or `undefined` outside a test. */
  readonly test: unknown;
  /** How many sessions the test created before this one. */
  readonly index: number;
  /** A strict session records only when asked to, never because `auto` found no file. */
  readonly strict: boolean;
}

/** Forgets the writers of the previous test file (the setup file calls it as each file starts). */
export function resetCassetteWriters(): void {
  writers.clear();
}

/** The plugin's cassette mode for every session (below `TOOLTRACE_CASSETTE` and a session's own). */
export function useCassetteMode(mode: CassetteMode | undefined): void {
  defaults.mode = mode;
}

/** Where a session's cassette lives by default: beside the test file, one file per test and session. */
export function defaultCassettePath(testPath: string, testName: string, sessionName: string): string {
  const slug = (text: string) =>
    text
      .replace(/[^A-Za-z0-9._-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 120) || "unnamed";
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
  /** With `replay: { upTo }`: how many model exchanges replay before everything goes live. */
  readonly upTo: number | undefined;
  private readonly llm: (CassetteModelEntry | undefined)[] = [];
  private modelExchanges = 0;
  private readonly tools = new Map<string, (CassetteToolEntry | undefined)[]>();
  private readonly http = new Map<string, (CassetteHttpEntry | undefined)[]>();
  private readonly cursors = new Map<string, number>();

  private constructor(
    readonly path: string,
    mode: "record" | "replay",
    options: CassetteOptions,
  ) {
    this.replaying = mode === "replay";
    this.redactor = new Redactor(options.redact);
    this.upTo = options.replay?.upTo;
    if (this.replaying) this.load();
  }

  /** The session's cassette, or `undefined` when the mode is `off`. Refuses a replay without a file. */
  static open(
    options: CassetteOptions | undefined,
    defaultPath: () => string | undefined,
    writer: CassetteWriter = { description: "a session", test: undefined, index: 0, strict: false },
  ): Cassette | undefined {
    if (options?.replay !== undefined) checkPrefix(options);
    const mode = options?.mode ?? (options?.replay ? "replay" : undefined) ?? envMode() ?? defaults.mode ?? "off";
    if (!MODES.includes(mode)) {
      throw new StubConfigError(
        { pointer: "" },
        `cassette mode ${JSON.stringify(mode)} is not one of ${MODES.join(", ")}.`,
        "fix `cassette.mode` (or the plugin's `cassette`).",
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
    const resolved = mode === "auto" ? (exists ? "replay" : "record") : mode;
    if (mode === "auto" && resolved === "record" && writer.strict) {
      throw new StubConfigError(
        { pointer: "/cassette/mode" },
        `${writer.description} is strict, and its cassette mode is auto with no file at ${path}: auto would record, running the real tools and network.`,
        'record it on purpose (TOOLTRACE_CASSETTE=record npx vitest run <this test file>, or `cassette: { mode: "record" }`), or check the path: renaming a test or session renames its cassette.',
        "session",
      );
    }
    if (resolved === "record") claimWriter(resolve(path), writer);
    return new Cassette(path, resolved, options ?? {});
  }

  /** The next recorded call of `tool`, and its position in the tool's queue. */
  nextTool(tool: string): { entry: CassetteToolEntry; index: number } | undefined {
    return this.next(this.tools, `tool ${tool}`, tool);
  }

  nextHttp(key: string): { entry: CassetteHttpEntry; index: number } | undefined {
    return this.next(this.http, `http ${key}`, key);
  }

  /**
   * Keeps a place for a call of `tool` in the order the calls start (parallel calls may finish in another
   * order); the returned function fills it in. A place never filled is left out of the file.
   */
  reserveTool(tool: string): (entry: CassetteToolEntry) => void {
    return this.reserve(this.tools, tool);
  }

  reserveHttp(key: string): (entry: CassetteHttpEntry) => void {
    return this.reserve(this.http, key);
  }

  /** Keeps the next place among the model exchanges, in the order they start. */
  reserveModel(): (entry: CassetteModelEntry) => void {
    return placeIn(this.llm);
  }

  /**
   * Counts a model exchange starting. In replay, the recorded one to answer it with (`undefined` when the
   * cassette holds no more), or `"live"` once a prefix replay (`upTo`) is past its end.
   */
  nextModel(): { entry: CassetteModelEntry | undefined; index: number } | "live" {
    const index = this.modelExchanges;
    this.modelExchanges += 1;
    if (this.upTo !== undefined && index >= this.upTo) return "live";
    return { entry: this.llm[index], index };
  }

  /** True once a prefix replay has gone live: tool calls and HTTP then run for real. */
  get live(): boolean {
    return this.upTo !== undefined && this.modelExchanges > this.upTo;
  }

  /** How many model exchanges the cassette holds. */
  get modelEntries(): number {
    return this.llm.length;
  }

  /** Records a whole call at once (the next place in its queue). */
  recordTool(tool: string, entry: CassetteToolEntry): void {
    this.reserveTool(tool)(entry);
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
    const llm = filled(this.llm);
    const file: CassetteFile = {
      version: VERSION,
      tools: sortedRecord(this.tools),
      http: sortedRecord(this.http),
      ...(llm.length > 0 ? { llm } : {}),
    };
    mkdirSync(dirname(this.path), { recursive: true });
    removeAbandoned(this.path);
    // Worker threads share a pid: the thread and a random part keep their temporary files apart.
    const temporary = `${this.path}.${process.pid}.${threadId}-${randomBytes(4).toString("hex")}.tmp`;
    try {
      writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`);
      renameSync(temporary, this.path);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
  }

  private load(): void {
    let file: Partial<CassetteFile>;
    try {
      file = JSON.parse(readFileSync(this.path, "utf8")) as Partial<CassetteFile>;
    } catch (error) {
      throw new StubConfigError(
        { pointer: "" },
        `cassette ${this.path} is not readable JSON (${(error as Error).message}).`,
        "record it again: TOOLTRACE_CASSETTE=record npx vitest run <this test file>.",
        "session",
      );
    }
    if (file.version !== VERSION) {
      throw new StubConfigError(
        { pointer: "" },
        `cassette ${this.path} has version ${JSON.stringify(file.version)}; this tooltrace reads version ${VERSION}.`,
        "record it again: TOOLTRACE_CASSETTE=record npx vitest run <this test file>.",
        "session",
      );
    }
    for (const [tool, entries] of Object.entries(file.tools ?? {})) this.tools.set(tool, [...entries]);
    for (const [key, entries] of Object.entries(file.http ?? {})) this.http.set(key, [...entries]);
    this.llm.push(...(file.llm ?? []));
  }

  private reserve<T>(queues: Map<string, (T | undefined)[]>, key: string): (entry: T) => void {
    let queue = queues.get(key);
    if (queue === undefined) {
      queue = [];
      queues.set(key, queue);
    }
    return placeIn(queue);
  }

  private next<T>(queues: Map<string, (T | undefined)[]>, cursorKey: string, key: string): { entry: T; index: number } | undefined {
    const index = this.cursors.get(cursorKey) ?? 0;
    const entry = queues.get(key)?.[index];
    if (entry === undefined) return undefined;
    this.cursors.set(cursorKey, index + 1);
    return { entry, index };
  }
}

/** Keeps the next place in `list`; the returned function fills it in. */
function placeIn<T>(list: (T | undefined)[]): (entry: T) => void {
  const place = list.push(undefined) - 1;
  return (entry) => {
    list[place] = entry;
  };
}

/** The places that were filled in: a call that never finished is left out of the file. */
function filled<T>(list: readonly (T | undefined)[]): T[] {
  return list.filter((entry): entry is T => entry !== undefined);
}

/** A temporary file this old is no save under way, whatever its pid says (another machine's, another container's). */
const ABANDONED_AFTER_MS = 60_000;

/** Removes temporary files beside `path` whose writer is gone (the pid in their name) or that are long stale: a writer killed mid-save. */
function removeAbandoned(path: string): void {
  const prefix = `${basename(path)}.`;
  for (const name of readdirSync(dirname(path))) {
    const pid = name.startsWith(prefix) ? /^(\d+)\.[\w-]+\.tmp$/.exec(name.slice(prefix.length))?.[1] : undefined;
    if (pid === undefined) continue;
    const file = join(dirname(path), name);
    let age: number;
    try {
      age = Date.now() - statSync(file).mtimeMs;
    } catch {
      continue;
    }
    if (age > ABANDONED_AFTER_MS || (!isAlive(Number(pid)) && Number(pid) !== process.pid)) rmSync(file, { force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function claimWriter(path: string, writer: CassetteWriter): void {
  const earlier = writers.get(path);
  const same = earlier !== undefined && earlier.test !== undefined && earlier.test === writer.test && earlier.index === writer.index;
  if (earlier !== undefined && !same) {
    throw new StubConfigError(
      { pointer: "/cassette" },
      `${writer.description} would record into ${path}, which ${earlier.description} records into in this run: one recording would overwrite the other.`,
      "give each its own file: rename one test or session (the default path is made of their names), or set `cassette.path`.",
      "session",
    );
  }
  writers.set(path, writer);
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

function sortedRecord<T>(map: Map<string, (T | undefined)[]>): Record<string, T[]> {
  const entries = [...map.entries()].map(([key, list]) => [key, filled(list)] as const);
  return Object.fromEntries(entries.filter(([, list]) => list.length > 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
