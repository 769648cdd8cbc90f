import { StubConfigError } from "../exits/errors.js";
import { globalSingleton } from "../base/global-state.js";
import { claimAcrossRun } from "./file-lock.js";

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
  /** The test file, for the message of a writer in another worker. */
  readonly file?: string | undefined;
  /** The test's full name, for the command that records the cassette again. */
  readonly testName?: string | undefined;
}

/** Forgets the writers of the previous test file (the setup file calls it as each file starts). */
export function resetCassetteWriters(): void {
  writers.clear();
}

/** Refuses a second writer of one file in this run (a retry of the same test and session is the same writer). */
export function claimWriter(path: string, writer: CassetteWriter): void {
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
  // Another worker of the run (a process or a thread) may record into the same explicit path.
  const other = claimAcrossRun(path, { file: writer.file, description: writer.description });
  if (other !== undefined) {
    throw new StubConfigError(
      { pointer: "/cassette/path" },
      `${writer.description}${writer.file ? ` (${writer.file})` : ""} would record into ${path}, which ${other.description}${other.file ? ` (${other.file})` : ""} records into in this run: one recording would overwrite the other.`,
      "give each its own file: set a different `cassette.path`, or leave it out so each test gets its own.",
      "session",
    );
  }
  writers.set(path, writer);
}
