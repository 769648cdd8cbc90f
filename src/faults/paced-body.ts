import type { FiredFault } from "./types.js";

const PACE = Symbol.for("tooltrace.pace");

/** Marks an answer to be delivered at a `slow` fault's pace (the wire reads it when it encodes the answer). */
export function withPace<T>(answer: T, fired: FiredFault): T {
  if (answer !== null && typeof answer === "object") Object.defineProperty(answer, PACE, { value: fired, configurable: true });
  return answer;
}

/** The `slow` fault an answer is paced by, if any. */
export function paceOf(answer: unknown): FiredFault | undefined {
  return answer !== null && typeof answer === "object" ? (answer as { [PACE]?: FiredFault })[PACE] : undefined;
}

const encoder = new TextEncoder();
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How long the tokens of an answer take at a `slow` fault's `tokensPerSecond` (0 without a pace). */
export function tokensMs(fired: FiredFault, outputTokens: number): number {
  const { tokensPerSecond } = fired.fault;
  return tokensPerSecond ? (outputTokens / tokensPerSecond) * 1000 : 0;
}

/**
 * A stream of `items`, `intervalMs` apart (the first at once: its wait was before the headers); with
 * `cutAfter`, the stream errors (the connection drops) after that many items.
 */
export function pacedStream<T>(
  items: readonly T[],
  options: { readonly intervalMs?: number; readonly cutAfter?: number; readonly cut?: Error },
): ReadableStream<T> {
  let index = 0;
  return new ReadableStream<T>({
    async pull(controller) {
      if (options.cutAfter !== undefined && index >= options.cutAfter) {
        controller.error(options.cut ?? new Error("the connection dropped (an injected stream_cut)"));
        return;
      }
      if (index >= items.length) {
        controller.close();
        return;
      }
      if (index > 0 && (options.intervalMs ?? 0) > 0) await sleep(options.intervalMs as number);
      controller.enqueue(items[index] as T);
      index += 1;
    },
  });
}

/** A body sent in `pieces` of text, as {@link pacedStream} paces them. */
export function pacedBody(
  pieces: readonly string[],
  options: { readonly intervalMs?: number; readonly cutAfter?: number; readonly cut?: Error },
): ReadableStream<Uint8Array> {
  return pacedStream(
    pieces.map((piece) => encoder.encode(piece)),
    options,
  );
}
