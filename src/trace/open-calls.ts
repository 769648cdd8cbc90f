import type { MockModelRequest } from "./request-view.js";
import type { HttpExchange } from "./types.js";

/** What a model call is opened with. */
export interface OpenModelCall {
  readonly provider: string;
  readonly model: string;
  readonly path: readonly string[];
  readonly request: MockModelRequest;
  readonly streamed: boolean;
  readonly http: HttpExchange | undefined;
  /** The judge asking, for a judge's call (`modelJudge`, `ctx.callLLM` after the turn): not the agent's. */
  readonly judge?: string | undefined;
}

/** What an HTTP exchange is opened with. */
export interface OpenHttpCall {
  readonly method: string;
  readonly url: string;
  readonly requestBody: unknown;
  readonly parentSeq: number | undefined;
}
