import type { ReasoningPart } from "../model/types.js";
import type { RedactOptions } from "../secrets/redactor.js";
import type { ModelFingerprint } from "./fingerprint.js";
import type { StalePolicy } from "./stale.js";
/** How a session uses its cassette. */
export type CassetteMode =
  /** The real tools and the network run; what they returned is written when the session closes. */
  | "record"
  /** Only the cassette answers: anything it does not hold fails, naming the call and the nearest recorded one. */
  | "replay"
  /** Replay when the cassette file exists, else record. */
  | "auto"
  /** No cassette. */
  | "off";

/** Options of a session's cassette (`createSession({ cassette })`). */
export interface CassetteOptions {
  /**
   * Default: the `TOOLTRACE_CASSETTE` environment variable, then the plugin's `cassette`, then `off`; so
   * `vitest run` in CI can replay while a developer records in watch mode (`TOOLTRACE_CASSETTE=record`).
   */
  readonly mode?: CassetteMode;
  /**
   * The file. Default: `__cassettes__/<test file>/<test name>.<session name>.json` beside the test file
   * (a session outside a test needs a path).
   */
  readonly path?: string;
  /**
   * Replay a prefix, then go live: the first `upTo` exchanges with the real model (and the tool calls and
   * HTTP inside them) come from the cassette, and everything after runs live, to ask "would this failure
   * resolve at step N with today's tools and prompt?". Implies `mode: "replay"`; needs the session's
   * `upstream` for the live part, and is refused in a strict session. Nothing is written.
   */
  readonly replay?: { readonly upTo: number };
  /**
   * More to redact on write, beside the defaults: fields, parameters and headers named like secrets in any
   * case style (`accessToken`, `client_secret`, `X-Api-Key`), every key a request carried, and the values of
   * environment variables named like keys, tokens, secrets, passwords or credentials.
   */
  readonly redact?: RedactOptions;
  /**
   * Replaying an exchange with the model recorded for another request than the code sends now (another
   * system prompt, tools or schemas, model): `warn` (default) says so once and replays it; `error` fails the
   * test. Default: `TOOLTRACE_STALE_CASSETTES`, else `warn`.
   */
  readonly stale?: StalePolicy;
  /**
   * A cache rather than a fixture: replaying, when the first exchange with the model was recorded for another
   * request than the code sends now (another user message, system prompt, tool or model), the whole cassette is
   * recorded anew instead of refused or replayed stale. What `trials({ cassette })` gives each trial. Default false.
   */
  readonly refresh?: boolean;
}

/** One recorded tool call. */
export interface CassetteToolEntry {
  readonly input: unknown;
  readonly output?: unknown;
  readonly error?: { readonly name: string; readonly message: string };
}

/** One recorded HTTP exchange: the response, or the network error the request failed with. */
export type CassetteHttpEntry = CassetteHttpResponse | CassetteHttpFailure;

/** A recorded response. */
export interface CassetteHttpResponse {
  readonly method: string;
  readonly url: string;
  readonly requestBody?: unknown;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The body as text, or in base64 when `bodyEncoding` says so (an image, a PDF: any body that is not text). */
  readonly body: string;
  readonly bodyEncoding?: "base64";
}

/** A request that failed before any response (refused connection, DNS, reset): replayed as the same failure. */
export interface CassetteHttpFailure {
  readonly method: string;
  readonly url: string;
  readonly requestBody?: unknown;
  readonly networkError: string;
}

/** One recorded exchange with the real model, in the shape of the mock model's reply. */
export interface CassetteModelEntry {
  /** The API (`anthropic.messages`, `openai.chat`, `openai.responses`). */
  readonly api: string;
  readonly model: string;
  /** The last user message of the request, which replay checks. */
  readonly lastUserMessage: string | null;
  /** What produced the exchange (the model, digests of the system prompt and each tool), which replay compares. */
  readonly fingerprint?: ModelFingerprint;
  readonly reply?: {
    /** The model's reasoning parts in its provider's shape (thinking blocks, reasoning items), kept whole. */
    readonly reasoning?: readonly ReasoningPart[];
    readonly text: string;
    readonly toolCalls: readonly { readonly id: string; readonly name: string; readonly input: unknown }[];
    readonly usage: { readonly inputTokens: number; readonly outputTokens: number; readonly totalTokens: number };
  };
  /** A failed exchange; `status` and `body` when the upstream answered with an error. */
  readonly error?: { readonly name: string; readonly message: string; readonly status?: number; readonly body?: string };
}

/** The JSON file: readable and stable, keys in a fixed order, safe to review in a pull request. */
export interface CassetteFile {
  readonly version: 1;
  /** Per tool (qualified name), the calls in the order they were made. */
  readonly tools: Readonly<Record<string, readonly CassetteToolEntry[]>>;
  /** Per `METHOD url`, the exchanges in the order they were made. */
  readonly http: Readonly<Record<string, readonly CassetteHttpEntry[]>>;
  /** The exchanges with the real model, in the order they were made (absent when there were none). */
  readonly llm?: readonly CassetteModelEntry[];
  /**
   * What the exchanges' fingerprints digest, by digest: each system prompt and each tool's definition, redacted,
   * kept once, so replay can show the lines that changed (absent when there were none).
   */
  readonly sources?: Readonly<Record<string, string>>;
}
