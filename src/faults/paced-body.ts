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

/**
 * A body sent in `pieces` the way a fault says: the first after `firstTokenMs`, each next one after as long
 * as its tokens (four characters each) take at `tokensPerSecond`; with `cutAfter`, the connection drops
 * (the stream errors) after that many pieces.
 */
export function pacedBody(
  pieces: readonly string[],
  options: { readonly firstTokenMs?: number; readonly tokensPerSecond?: number; readonly cutAfter?: number; readonly cut?: Error },
): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (options.cutAfter !== undefined && index >= options.cutAfter) {
        controller.error(options.cut ?? new Error("the connection dropped (an injected stream_cut)"));
        return;
      }
      if (index >= pieces.length) {
        controller.close();
        return;
      }
      const piece = pieces[index] as string;
      const wait =
        index === 0
          ? (options.firstTokenMs ?? 0)
          : options.tokensPerSecond
            ? (Math.ceil(piece.length / 4) / options.tokensPerSecond) * 1000
            : 0;
      if (wait > 0) await sleep(wait);
      index += 1;
      controller.enqueue(encoder.encode(piece));
    },
  });
}
