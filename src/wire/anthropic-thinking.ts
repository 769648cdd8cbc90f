import type { ReasoningPart } from "../model/types.js";
import { chunkText } from "../model/chunk-text.js";
import { sse, WIRE_DELTA } from "./codec.js";
import type { Json } from "./sse-events.js";

const THINKING = new Set(["thinking", "redacted_thinking"]);

/** A reply's Anthropic thinking blocks, whole (their signatures and redacted data included). */
export function thinkingOf(parts: readonly ReasoningPart[] | undefined): ReasoningPart[] {
  return (parts ?? []).filter((part) => THINKING.has(part.type));
}

/** The thinking blocks of a response's `content`. */
export function thinkingBlocks(content: readonly Json[]): ReasoningPart[] {
  return content.filter((block) => THINKING.has(String(block.type))) as ReasoningPart[];
}

/** Thinking blocks put back together from a stream: `content_block_start`, then thinking and signature deltas. */
export class StreamedThinking {
  private readonly blocks = new Map<number, Record<string, unknown>>();

  start(index: number, block: Json): void {
    if (THINKING.has(String(block.type))) this.blocks.set(index, { ...block });
  }

  delta(index: number, delta: Json): void {
    const block = this.blocks.get(index);
    if (block === undefined) return;
    if (delta.type === "thinking_delta") block.thinking = `${String(block.thinking ?? "")}${String(delta.thinking ?? "")}`;
    if (delta.type === "signature_delta") block.signature = String(delta.signature ?? "");
  }

  parts(): ReasoningPart[] {
    return [...this.blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block as ReasoningPart);
  }
}

/** Thinking blocks as the stream sends them, from content index `index` on; returns the events and the next index. */
export function thinkingEvents(parts: readonly ReasoningPart[], index: number): { events: string[]; next: number } {
  const events: string[] = [];
  let at = index;
  for (const part of thinkingOf(parts)) {
    if (part.type === "redacted_thinking") {
      events.push(sse({ type: "content_block_start", index: at, content_block: part }, "content_block_start"));
    } else {
      events.push(
        sse(
          { type: "content_block_start", index: at, content_block: { type: "thinking", thinking: "", signature: "" } },
          "content_block_start",
        ),
      );
      for (const thinking of chunkText(String(part.thinking ?? ""), WIRE_DELTA))
        events.push(sse({ type: "content_block_delta", index: at, delta: { type: "thinking_delta", thinking } }, "content_block_delta"));
      events.push(
        sse(
          { type: "content_block_delta", index: at, delta: { type: "signature_delta", signature: String(part.signature ?? "") } },
          "content_block_delta",
        ),
      );
    }
    events.push(sse({ type: "content_block_stop", index: at }, "content_block_stop"));
    at += 1;
  }
  return { events, next: at };
}
