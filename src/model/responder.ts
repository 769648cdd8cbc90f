import { seededRandom } from "../base/seeded-random.js";
import { TooltraceError } from "../exits/errors.js";
import { isThenable } from "../base/settle.js";
import { resolveReply } from "./resolve-reply.js";
import type { MockModelInput, MockModelOptions, MockModelReply, MockModelRequest, MockModelResponder, ResolvedReply } from "./types.js";

/** A mock model's identity and its reply function, shared by the AI SDK model and the wire handlers. */
export interface Responder {
  readonly modelId: string;
  readonly provider: string;
  /**
   * Answers one model call. Throws a `TooltraceError` for a bad reply or a script that ran out.
   * `idPrefix` shapes derived tool-call ids the way the provider does (`toolu_` for Anthropic).
   */
  respond(
    request: MockModelRequest,
    idPrefix?: string,
    onStep?: (step: number) => void,
    variant?: { readonly seed: number | undefined; readonly call: number },
  ): Promise<ResolvedReply>;
  /**
   * What the next call would be answered, without spending it: a fault that cuts an answer (`stream_cut`,
   * `malformed`) cuts this one, and the script's step is left for the retry.
   */
  peek(
    request: MockModelRequest,
    idPrefix?: string,
    variant?: { readonly seed: number | undefined; readonly call: number },
  ): Promise<ResolvedReply>;
  /** How many calls this responder has answered. */
  readonly calls: number;
}

/** Builds a {@link Responder} from anything `mockModel()` accepts. */
export function createResponder(input: MockModelInput | undefined): Responder {
  const options: MockModelOptions = isOptions(input) ? input : { respond: input as MockModelOptions["respond"] };
  const respond = options.respond ?? "Mock response";
  let calls = 0;
  const answer = async (
    callNumber: number,
    request: MockModelRequest,
    idPrefix: string | undefined,
    variant: { readonly seed: number | undefined; readonly call: number } | undefined,
  ): Promise<ResolvedReply> => {
    let step: MockModelReply | MockModelResponder;
    if (Array.isArray(respond)) {
      const script = respond as readonly (MockModelReply | MockModelResponder)[];
      if (callNumber > script.length) {
        throw new TooltraceError(
          `mock model call ${callNumber}: the script has only ${script.length} repl${script.length === 1 ? "y" : "ies"}. ` +
            `Last user message: ${JSON.stringify(request.lastUserMessage)}. Add a reply, or end the script with a responder function.`,
        );
      }
      step = script[callNumber - 1] as MockModelReply | MockModelResponder;
    } else {
      step = respond as MockModelReply | MockModelResponder;
    }
    if (typeof step !== "function") return resolveReply(step, request, callNumber, idPrefix);
    // Seeded by the session's seed and the call's number in the session (outside one, this responder's count).
    const seed = variant?.seed;
    let generator: (() => number) | undefined;
    const random = () => {
      generator ??= seededRandom(((seed ?? 0) * 1_000_003 + (variant?.call ?? callNumber)) >>> 0);
      return generator();
    };
    const answered = step(request, { seed, random });
    return resolveReply(isThenable(answered) ? await answered : answered, request, callNumber, idPrefix);
  };
  return {
    modelId: options.modelId ?? "mock-model",
    provider: options.provider ?? "tooltrace",
    get calls() {
      return calls;
    },
    respond(request, idPrefix, onStep, variant) {
      calls += 1;
      onStep?.(calls);
      return answer(calls, request, idPrefix, variant);
    },
    peek: (request, idPrefix, variant) => answer(calls + 1, request, idPrefix, variant),
  };
}

/** An object is options unless it reads as a reply (`text`, `toolCalls`, `usage`). */
function isOptions(input: MockModelInput | undefined): input is MockModelOptions {
  if (input === undefined || input === null || typeof input !== "object" || Array.isArray(input)) return false;
  return !("text" in input || "toolCalls" in input || "usage" in input);
}
