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
 * The wait before each of a stream's items to spread `totalMs` over its text: the items up to the first with
 * text come at once, each later one after its share of the text (`weights`, its characters); with no text at
 * all, the time is spread evenly.
 */
export function textDelays(weights: readonly number[], totalMs: number): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum === 0) return weights.map((_, index) => (index === 0 ? 0 : totalMs / (weights.length - 1)));
  const first = weights.findIndex((weight) => weight > 0);
  return weights.map((weight, index) => (index <= first ? 0 : (weight / sum) * totalMs));
}

/** How long a cut waits after the last item it lets through: a dropped connection comes after the data did. */
const CUT_GAP_MS = 20;

/** How a {@link pacedStream} paces and ends. */
export interface Pacing {
  /** Milliseconds before each item after the first (the first comes at once: its wait was before the headers). */
  readonly intervalMs?: number;
  /** Or milliseconds before each item, by its index. */
  readonly delays?: readonly number[];
  /** The stream errors (the connection drops) after this many items. */
  readonly cutAfter?: number;
  readonly cut?: Error;
}

/**
 * A stream of `items`, paced; with `cutAfter`, it errors after that many. The error waits a moment after the
 * last item: a reader that has not read it yet would lose it (an erroring stream drops what it still holds),
 * where a real connection's reader had the data before the connection dropped.
 */
export function pacedStream<T>(items: readonly T[], pacing: Pacing): ReadableStream<T> {
  let index = 0;
  return new ReadableStream<T>({
    async pull(controller) {
      if (pacing.cutAfter !== undefined && index >= pacing.cutAfter) {
        await sleep(CUT_GAP_MS);
        controller.error(pacing.cut ?? new Error("the connection dropped (an injected stream_cut)"));
        return;
      }
      if (index >= items.length) {
        controller.close();
        return;
      }
      const wait = pacing.delays?.[index] ?? (index > 0 ? (pacing.intervalMs ?? 0) : 0);
      if (wait > 0) await sleep(wait);
      controller.enqueue(items[index] as T);
      index += 1;
    },
  });
}

/** A body sent in `pieces` of text, as {@link pacedStream} paces them. */
export function pacedBody(pieces: readonly string[], pacing: Pacing): ReadableStream<Uint8Array> {
  return pacedStream(
    pieces.map((piece) => encoder.encode(piece)),
    pacing,
  );
}
