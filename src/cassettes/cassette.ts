import { readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { StubConfigError } from "../exits/errors.js";
import { Redactor } from "../secrets/redactor.js";
import { writeCassette } from "../exits/out.js";
import { resolveCassette } from "./cassette-mode.js";
import { rerecordCommand } from "./rerecord.js";
import { type StalePolicy, stalePolicy } from "./stale.js";
import type { CassetteFile, CassetteHttpEntry, CassetteModelEntry, CassetteOptions, CassetteToolEntry } from "./types.js";
import { type CassetteWriter, claimWriter } from "./writers.js";

const VERSION = 1;

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
  private replay: boolean;
  readonly redactor: Redactor;
  /** With `replay: { upTo }`: how many model exchanges replay before everything goes live. */
  readonly upTo: number | undefined;
  readonly stale: StalePolicy;
  /** The command that records this cassette again, and only it. */
  readonly rerecord: string;
  private readonly llm: (CassetteModelEntry | undefined)[] = [];
  private modelExchanges = 0;
  private readonly tools = new Map<string, (CassetteToolEntry | undefined)[]>();
  private readonly http = new Map<string, (CassetteHttpEntry | undefined)[]>();
  private readonly cursors = new Map<string, number>();
  private readonly sources = new Map<string, string>();
  private forSources: Redactor | undefined;
  private readonly redactOptions: CassetteOptions["redact"];
  private readonly refresh: boolean;

  private constructor(
    readonly path: string,
    mode: "record" | "replay",
    options: CassetteOptions,
    private readonly writer: CassetteWriter,
  ) {
    this.replay = mode === "replay";
    this.refresh = options.refresh === true;
    this.stale = stalePolicy(options.stale);
    this.rerecord = rerecordCommand(writer, options.mode);
    this.redactor = new Redactor(options.redact);
    this.redactOptions = options.redact;
    this.upTo = options.replay?.upTo;
    if (this.replay) this.load();
  }

  /** Whether it answers from the file (else the real things run and it records them). */
  get replaying(): boolean {
    return this.replay;
  }

  /**
   * With `refresh`, while nothing but the first model exchange has been replayed: forgets the recording and
   * records from here (the cassette is a cache, and what it held was for another request). False otherwise.
   */
  recordAnew(): boolean {
    if (!this.replay || !this.refresh || this.modelExchanges !== 1 || this.cursors.size > 0) return false;
    claimWriter(resolve(this.path), this.writer);
    this.replay = false;
    this.modelExchanges = 0;
    this.llm.length = 0;
    this.tools.clear();
    this.http.clear();
    this.sources.clear();
    return true;
  }

  /** The session's cassette, or `undefined` when the mode is `off`. Refuses a replay without a file. */
  static open(
    options: CassetteOptions | undefined,
    defaultPath: () => string | undefined,
    writer: CassetteWriter = { description: "a session", test: undefined, index: 0, strict: false },
  ): Cassette | undefined {
    const resolved = resolveCassette(options, defaultPath, writer);
    if (resolved === undefined) return undefined;
    if (resolved.mode === "record") claimWriter(resolve(resolved.path), writer);
    return new Cassette(resolved.path, resolved.mode, options ?? {}, writer);
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

  /** Keeps the texts a recorded fingerprint digests, redacted as {@link keptText} says. */
  noteSources(sources: Readonly<Record<string, string>>): void {
    for (const [digest, text] of Object.entries(sources)) this.sources.set(digest, this.keptText(text));
  }

  /**
   * A prompt or a tool's definition as the cassette keeps it: redacted, a key in a well-known format too (it
   * is the code's text, which a cassette must not refuse to write for a key someone pasted into a prompt).
   */
  keptText(text: string): string {
    this.forSources ??= new Redactor(this.redactOptions, { formats: true });
    return this.forSources.text(text);
  }

  /** The recorded text of a fingerprint's digest, if the cassette kept it (cassettes recorded before did not). */
  source(digest: string): string | undefined {
    return this.sources.get(digest);
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
    if (this.replay) return;
    const llm = filled(this.llm);
    const file: CassetteFile = {
      version: VERSION,
      tools: sortedRecord(this.tools),
      http: sortedRecord(this.http),
      ...(llm.length > 0 ? { llm } : {}),
      ...(this.sources.size > 0 ? { sources: Object.fromEntries([...this.sources].sort(([a], [b]) => (a < b ? -1 : 1))) } : {}),
    };
    writeCassette(this.path, file, this.redactor);
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
    for (const [digest, text] of Object.entries(file.sources ?? {})) if (typeof text === "string") this.sources.set(digest, text);
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

function sortedRecord<T>(map: Map<string, (T | undefined)[]>): Record<string, T[]> {
  const entries = [...map.entries()].map(([key, list]) => [key, filled(list)] as const);
  return Object.fromEntries(entries.filter(([, list]) => list.length > 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
