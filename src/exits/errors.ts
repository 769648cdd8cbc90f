import { withoutOwnFrames } from "../base/call-site.js";
import { hasBrand, stampBrands } from "../base/copy-brands.js";
import { excerpt, middleCut, noWorkflowCommands } from "./excerpt.js";
import { redactReportText } from "./redact.js";
import { noteExit } from "./registry.js";

export { pointerOf, pointerToken } from "../base/pointer.js";

/** Every message tooltrace writes starts with this prefix. */
export const PREFIX = "[tooltrace]";

/**
 * A message as tooltrace writes it: the prefix, what happened, and what to do on a `Fix:` line of its own;
 * redacted, and no line of it a workflow command (the exit every error and warning of tooltrace's leaves by).
 */
export function message(problem: string, fix?: string): string {
  noteExit("error");
  return noWorkflowCommands(redactReportText(`${PREFIX} ${problem}${fix ? `\n  Fix: ${fix}` : ""}`));
}

/** A wrong argument to a tooltrace function, with the message tooltrace writes. */
export function usageError(problem: string, fix?: string): TypeError {
  const error = new TypeError(roomForOwnFrames(message(problem, fix)));
  error.stack = usersStack(error.stack);
  return error;
}

/** How many frames of tooltrace's own an error may be thrown under (validation nests a few deep). */
const OWN_FRAMES = 30;
let userLimit: unknown;

/**
 * Passes `text` through, with V8 set to capture {@link OWN_FRAMES} more frames for the error being made:
 * tooltrace's own frames are dropped from its errors' stacks, and the user's must not be cut off below them.
 */
function roomForOwnFrames<T>(text: T): T {
  userLimit = Error.stackTraceLimit;
  if (typeof userLimit === "number" && userLimit > 0) Error.stackTraceLimit = userLimit + OWN_FRAMES;
  return text;
}

/** The stack without tooltrace's frames, as many of the user's as `Error.stackTraceLimit` asks for. */
function usersStack(stack: string | undefined): string | undefined {
  const limit = userLimit;
  Error.stackTraceLimit = limit as number;
  return withoutOwnFrames(stack, typeof limit === "number" ? limit : undefined);
}

/** Where a configuration error was found: the rule and the JSON pointer inside it. */
export interface ConfigErrorLocation {
  /** The id of the rule at fault, when it has one. */
  readonly ruleId?: string;
  /** The rule's position in the `stubs` array. */
  readonly ruleIndex?: number;
  /** JSON pointer (RFC 6901) of the offending place inside the rule, e.g. `/match/query/pattern`. */
  readonly pointer: string;
  /** What the faulty entry is, for the message: `stub rule` (default), `HTTP mock`, or a file's place (`YAML eval a.yaml`). */
  readonly what?: string;
}

/** A stub rule or session option is invalid. Thrown by `createSession` before any call runs. */
export class StubConfigError extends Error {
  /** What `instanceof` reads in an error another copy of tooltrace threw (its ES and CommonJS builds). */
  static readonly brand: string = "tooltrace.StubConfigError";
  /** True for this class's instances, from either copy of tooltrace (see `brand`). */
  static [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class `instanceof` names, a subclass too.
    return hasBrand(this, value);
  }
  override readonly name = "StubConfigError";
  readonly ruleId: string | undefined;
  readonly ruleIndex: number | undefined;
  readonly pointer: string;

  /**
   * @param subject `stubs` for a rule's fault (the message names the rule and pointer), `session` for a
   * fault in the other options of `createSession`.
   */
  constructor(location: ConfigErrorLocation, problem: string, fix?: string, subject: "stubs" | "session" = "stubs") {
    super(
      roomForOwnFrames(subject === "session" ? message(`createSession: ${problem}`, fix) : message(`${where(location)}: ${problem}`, fix)),
    );
    this.stack = usersStack(this.stack);
    stampBrands(this, new.target);
    this.ruleId = location.ruleId;
    this.ruleIndex = location.ruleIndex;
    this.pointer = location.pointer;
  }
}

/** `stub rule "tasks" at /match/query`: the rule by its id (cut short: an id is user data), else by its place. */
function where(location: ConfigErrorLocation): string {
  const id = location.ruleId === undefined ? undefined : excerpt(location.ruleId, 60);
  const what = location.what ?? "stub rule";
  const rule =
    id !== undefined
      ? `${what} "${id}"`
      : location.ruleIndex !== undefined
        ? `${what} #${location.ruleIndex}`
        : what === "stub rule"
          ? "stubs"
          : what === "HTTP mock"
            ? "http"
            : what;
  // A pointer holds the user's keys: past a few hundred characters its middle says nothing.
  const pointer = location.pointer.length > 200 ? middleCut(location.pointer, 120, 60) : location.pointer;
  return pointer === "" ? rule : `${rule} at ${pointer}`;
}

/** A call broke a session rule at run time: strict mode, the call limit, a scripted model running out. */
export class TooltraceError extends Error {
  /** What `instanceof` reads in an error another copy of tooltrace threw (its ES and CommonJS builds). */
  static readonly brand: string = "tooltrace.TooltraceError";
  /** True for this class's instances, from either copy of tooltrace (see `brand`). */
  static [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class `instanceof` names, a subclass too.
    return hasBrand(this, value);
  }
  override readonly name: string = "TooltraceError";
  constructor(problem: string, fix?: string) {
    super(roomForOwnFrames(message(problem, fix)));
    this.stack = usersStack(this.stack);
    stampBrands(this, new.target);
  }
}
