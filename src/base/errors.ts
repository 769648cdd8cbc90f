import { withoutOwnFrames } from "./call-site.js";
import { hasBrand, stampBrands } from "./copy-brands.js";
import { noWorkflowCommands } from "./excerpt.js";

/** Every message tooltrace writes starts with this prefix. */
export const PREFIX = "[tooltrace]";

/** A message as tooltrace writes it: the prefix, what happened, and what to do on a `Fix:` line of its own. */
export function message(problem: string, fix?: string): string {
  return noWorkflowCommands(`${PREFIX} ${problem}${fix ? `\n  Fix: ${fix}` : ""}`);
}

/** A wrong argument to a tooltrace function, with the message tooltrace writes. */
export function usageError(problem: string, fix?: string): TypeError {
  const error = new TypeError(message(problem, fix));
  error.stack = withoutOwnFrames(error.stack);
  return error;
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
    super(subject === "session" ? message(`createSession: ${problem}`, fix) : message(`${where(location)}: ${problem}`, fix));
    stampBrands(this, new.target);
    this.ruleId = location.ruleId;
    this.ruleIndex = location.ruleIndex;
    this.pointer = location.pointer;
    this.stack = withoutOwnFrames(this.stack);
  }
}

/** `stub rule "tasks" at /match/query`: the rule by its id (cut short: an id is user data), else by its place. */
function where(location: ConfigErrorLocation): string {
  const id = location.ruleId !== undefined && location.ruleId.length > 60 ? `${location.ruleId.slice(0, 59)}…` : location.ruleId;
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
  const pointer = location.pointer.length > 200 ? `${location.pointer.slice(0, 120)}…${location.pointer.slice(-60)}` : location.pointer;
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
    super(message(problem, fix));
    stampBrands(this, new.target);
    this.stack = withoutOwnFrames(this.stack);
  }
}

/** Escapes one reference token of a JSON pointer. */
export function pointerToken(token: string | number): string {
  const text = String(token);
  return text.includes("~") || text.includes("/") ? text.replace(/~/g, "~0").replace(/\//g, "~1") : text;
}

/** A JSON pointer from its reference tokens, each escaped: `["a/b", "0"]` is `/a~1b/0`. */
export function pointerOf(tokens: readonly (string | number)[]): string {
  return tokens.map((token) => `/${pointerToken(token)}`).join("");
}
