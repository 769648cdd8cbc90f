import { anthropicMessages } from "./anthropic-messages.js";
import type { WireApi, WireCodec } from "./codec.js";
import { gemini } from "./gemini.js";
import { openaiChat } from "./openai-chat.js";
import { openaiResponses } from "./openai-responses.js";
import type { WireRequest } from "./wire-http.js";

/** Every codec, in the order their endpoint paths are tried. */
export const CODECS: readonly WireCodec[] = [anthropicMessages, openaiChat, openaiResponses, gemini];

/** The codecs of `apis` (default: all). */
export function codecsFor(apis: readonly WireApi[] | undefined): readonly WireCodec[] {
  return apis === undefined ? CODECS : CODECS.filter((codec) => apis.includes(codec.api));
}

/** The provider a request to some other path is for: the one that claims it, else OpenAI's. */
export function providerOf(request: WireRequest, path: string): WireCodec {
  return CODECS.find((codec) => codec.owns?.(request, path)) ?? openaiChat;
}
