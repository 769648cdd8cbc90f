import { globalSingleton } from "../base/global-state.js";
import { TooltraceError } from "../exits/errors.js";
import type { TurnContext } from "../pipeline/caught.js";
import type { Pipeline } from "../pipeline/pipeline.js";
import { runInTurnContext } from "../pipeline/turn-context.js";
import type { WireCodec } from "../wire/codec.js";
import type { WireRequest } from "../wire/wire-http.js";

/** The last model request an agent of a session sent over the wire: where a judge asks the same model. */
interface SentModelRequest {
  readonly codec: WireCodec;
  readonly url: string;
  readonly headers: readonly [string, string][];
  readonly model: string;
}

const sent = globalSingleton("judgeWireRequests", () => new WeakMap<Pipeline, SentModelRequest>());
/** Headers a request of tooltrace's own sets again, or that describe the agent's body. */
const DROPPED = new Set(["content-length", "content-type", "accept-encoding", "host", "connection", "transfer-encoding"]);

/** Remembers an agent's model request (not a judge's), for a judge of its session to ask that model. */
export function rememberModelRequest(pipeline: Pipeline, codec: WireCodec, request: WireRequest, model: string): void {
  const headers: [string, string][] = [];
  request.headers.forEach((value, name) => {
    if (!DROPPED.has(name.toLowerCase())) headers.push([name, value]);
  });
  sent.set(pipeline, { codec, url: request.url, headers, model });
}

/** One user message to `model`, in the body each API takes, answered whole (no stream). */
function promptBody(api: string, model: string, prompt: string): Record<string, unknown> {
  switch (api) {
    case "anthropic.messages":
      return { model, max_tokens: 1024, messages: [{ role: "user", content: prompt }] };
    case "openai.responses":
      return { model, input: prompt };
    case "google.gemini":
      return { contents: [{ role: "user", parts: [{ text: prompt }] }] };
    default:
      return { model, messages: [{ role: "user", content: prompt }] };
  }
}

/**
 * Asks the real model the session's agent called (`upstream`, no `llm`) one prompt, for a judge: the request
 * goes the agent's way, through the session's chain in the judge's context, so a cassette records it (and
 * replays it in CI), strict mode refuses it live, and the turn's `judgeCalls` keep it.
 */
export async function askUpstreamModel(context: TurnContext, prompt: string): Promise<string> {
  const last = sent.get(context.pipeline);
  if (last === undefined)
    throw new TooltraceError(
      `a judge of ${context.pipeline.name} asks the model its agent called, and the agent made no model call over the wire.`,
      "give the judge `ask` (a function sending the prompt to a model), or script the session's model with `llm`.",
    );
  const url = new URL(last.url);
  // A stream's URL asks for a whole answer instead (Gemini names it in the path, and `alt=sse` in the query).
  url.pathname = url.pathname.replace(/:streamGenerateContent$/, ":generateContent");
  url.searchParams.delete("alt");
  const response = await runInTurnContext(context, () =>
    fetch(url, {
      method: "POST",
      headers: [...last.headers, ["content-type", "application/json"]],
      body: JSON.stringify(promptBody(last.codec.api, last.model, prompt)),
    }),
  );
  const text = await response.text();
  if (!response.ok) throw new TooltraceError(`the judge's model answered ${response.status}: ${text.slice(0, 300)}`);
  return last.codec.decodeReply(text, false).text;
}
