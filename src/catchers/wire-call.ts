/** What became of one tool call: what the model sees as its result. */
export interface Outcome {
  readonly output: unknown;
  readonly isError: boolean;
}

/** One tool call the model made, caught on the wire and run through the session's chain. */
export interface WireCall {
  readonly id: string;
  readonly name: string;
  /** The input the model gave; the agent may have been sent another (a middleware rewrote it). */
  readonly input: unknown;
  /** The agent ran it: its result goes back into the chain here. */
  deliver?: (result: Outcome) => void;
  delivered: boolean;
  /** The chain's answer, as the model must see it. */
  readonly outcome: Promise<Outcome>;
  settled?: Outcome;
  /** In a reply where some calls were answered here and some sent: every call id of that reply, in order. */
  group?: readonly string[];
  /** The input the agent was sent, and the result it sent back: the real model sees the model's and the chain's. */
  sentInput?: unknown;
  agentResult?: Outcome;
}
