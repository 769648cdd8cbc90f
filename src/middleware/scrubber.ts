import type { Middleware } from "./types.js";
import { usageError } from "../exits/errors.js";

/** Options of {@link scrubber}. */
export interface ScrubberOptions {
  /** The strings or ids whose presence removes a result item (an array element, or a text). */
  readonly remove: readonly string[];
  /** Only these tools' results (qualified names); default: every tool. */
  readonly tools?: readonly string[];
  /** Default `scrubber`; give another to use two scrubbers in one session. */
  readonly name?: string;
}

/** What the scrubber keeps in `turn.results[name]`. */
export interface ScrubberResult {
  /** How many array elements or texts it removed from what the agent saw. */
  readonly removed: number;
}

/**
 * A middleware that hides the answer's source from the agent: in every tool result, an array element that
 * mentions one of `remove` (anywhere in its JSON) is dropped, and a text that mentions one becomes
 * `"[scrubbed]"`. The tool runs as usual; the agent sees only what is left. `turn.results.scrubber` counts
 * what was removed.
 *
 * @example
 * ```ts
 * createSession({ agent, tools, middleware: [scrubber({ remove: ["INC-4821"], tools: ["search"] })] });
 * ```
 */
export function scrubber(options: ScrubberOptions): Middleware {
  const name = options.name ?? "scrubber";
  if (!Array.isArray(options.remove) || options.remove.some((item) => typeof item !== "string" || item === "")) {
    throw usageError(`scrubber({ remove }): \`remove\` must list non-empty strings (ids or text to hide).`);
  }
  const key = `${name}.removed`;
  return {
    name,
    async onToolCall({ tool, input, handler, fail, ctx }) {
      if (options.tools !== undefined && !options.tools.includes(tool)) return handler(input);
      let output: unknown;
      try {
        output = await handler(input);
      } catch (error) {
        // A failure's message is a result the agent reads too.
        if (!mentions(error instanceof Error ? error.message : String(error), options.remove)) throw error;
        ctx.data[key] = ((ctx.data[key] as number | undefined) ?? 0) + 1;
        return fail("[scrubbed]");
      }
      const counter = { removed: 0 };
      const scrubbed = scrub(output, options.remove, counter);
      ctx.data[key] = ((ctx.data[key] as number | undefined) ?? 0) + counter.removed;
      return counter.removed === 0 ? output : scrubbed;
    },
    afterEval: ({ ctx }): ScrubberResult => ({ removed: (ctx.data[key] as number | undefined) ?? 0 }),
  };
}

function mentions(value: unknown, needles: readonly string[]): boolean {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "");
  return needles.some((needle) => text.includes(needle));
}

function scrub(value: unknown, needles: readonly string[], counter: { removed: number }): unknown {
  if (typeof value === "string") {
    if (!mentions(value, needles)) return value;
    counter.removed += 1;
    return "[scrubbed]";
  }
  if (Array.isArray(value)) {
    const kept = value.filter((item) => {
      if (!mentions(item, needles)) return true;
      counter.removed += 1;
      return false;
    });
    return kept;
  }
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([field, item]) => [field, scrub(item, needles, counter)]));
  }
  return value;
}
