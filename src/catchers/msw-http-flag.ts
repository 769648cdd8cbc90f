import { globalSingleton } from "../global-state.js";

const state = globalSingleton("httpCatcher", () => ({ added: false, running: 0 }));

/**
 * True while an HTTP catcher can see this process's requests: tooltrace's own MSW server is listening, or
 * `httpCatcher()` was added to a server of the user's (whose lifetime tooltrace cannot see). Tool calls then
 * carry their `seq` into the HTTP they make, and strict sessions may be created.
 */
export function httpIsCaught(): boolean {
  return state.added || state.running > 0;
}

/** Called when `httpCatcher()` is handed to a server tooltrace does not own. */
export function markHttpCaught(): void {
  state.added = true;
}

/** Called when tooltrace's own server starts listening; the returned function when it closes. */
export function holdHttpCaught(): () => void {
  state.running += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    state.running -= 1;
  };
}
