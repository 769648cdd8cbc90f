import { globalSingleton, holdCount } from "../base/global-state.js";

interface Holder {
  /** False while the catcher it stands for cannot see requests (a joined server that stopped listening). */
  active(): boolean;
}

const state = globalSingleton("httpCatcher", () => ({ added: false, holders: new Set<Holder>() }));

/**
 * True while an HTTP catcher can see this process's requests: tooltrace's own MSW server is listening, a
 * server tooltrace joined is listening, or `httpCatcher()` was added to a server of the user's (whose
 * lifetime tooltrace cannot see). Tool calls then carry their `seq` into the HTTP they make, and strict
 * sessions may be created.
 */
export function httpIsCaught(): boolean {
  if (state.added) return true;
  for (const holder of state.holders) if (holder.active()) return true;
  return false;
}

/** Called when `httpCatcher()` is handed to a server tooltrace does not own. */
export function markHttpCaught(): void {
  state.added = true;
}

/** Called when a catcher starts catching; the returned function when it stops. `active` says whether it sees requests now. */
export function holdHttpCaught(active: () => boolean = () => true): () => void {
  const holder: Holder = { active };
  state.holders.add(holder);
  return () => {
    state.holders.delete(holder);
  };
}

const wire = globalSingleton("wireMock", () => ({ open: 0 }));

/**
 * Called when a wire mock starts answering LLM requests (tooltrace's MSW handlers, a loopback server);
 * the returned function when it stops. A session given `llm` needs one, or its model calls go to the real API.
 */
export function holdWireMock(): () => void {
  return holdCount(wire, "open");
}

/** True while a wire mock answers LLM requests in this process. */
export function wireMockIsRunning(): boolean {
  return wire.open > 0;
}
