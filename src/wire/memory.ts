/** What a codec remembers across requests of one session (Responses `item_reference`, `previous_response_id`). */
export interface WireMemory {
  /** Output items the mock issued, by id. */
  readonly items: Map<string, unknown>;
  /** Responses the mock stored, by id: the whole conversation up to and including their output. */
  readonly responses: Map<string, readonly unknown[]>;
  /** The ids among them the mock made up itself (a real upstream's are kept too, and it knows those). */
  readonly issued: Set<string>;
}

/** At most this many stored items and responses per session, oldest first out. */
const MAX_REMEMBERED = 10_000;

/** A memory with nothing in it yet. */
export function emptyMemory(): WireMemory {
  return { items: new Map(), responses: new Map(), issued: new Set() };
}

/** Keeps the newest {@link MAX_REMEMBERED} of each kind of remembered thing. */
export function boundMemory(memory: WireMemory): void {
  for (const remembered of [memory.items, memory.responses, memory.issued]) {
    while (remembered.size > MAX_REMEMBERED) remembered.delete(remembered.keys().next().value as string);
  }
}
