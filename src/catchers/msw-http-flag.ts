import { globalSingleton } from "../global-state.js";

const state = globalSingleton("httpCatcher", () => ({ installed: false }));

/** True once an HTTP catcher exists in this process: tool calls then carry their `seq` into the HTTP they make. */
export function httpIsCaught(): boolean {
  return state.installed;
}

/** Called by the HTTP catcher when it is created. */
export function markHttpCaught(): void {
  state.installed = true;
}
