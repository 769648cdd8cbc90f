import { runOptionName } from "../base/runner-form.js";
import { parseHostRules } from "../pipeline/hosts.js";
import { installEdgeGuards } from "./edge-guards.js";
import { guardFetchLazily } from "./fetch-guard.js";
import { setHermetic } from "./hermetic.js";

/** `TOOLTRACE_LIVE=1` (or `true`): the run may reach the network, as `tooltrace({ live: true })`. */
export function liveFromEnv(): boolean {
  const value = process.env.TOOLTRACE_LIVE;
  return value === "1" || value === "true";
}

/**
 * Called by the setup files (Vitest's and Jest's) before the test's modules load: the guards at the process's
 * edges go in once, and the run is hermetic unless `live`. What goes in costs a test file well under a
 * millisecond or two; Node's `fetch` is guarded at its first call.
 */
export function startGuards(options: { readonly live?: boolean | undefined; readonly allowHosts?: unknown }): void {
  setHermetic({
    live: options.live === true || liveFromEnv(),
    allowHosts: parseHostRules(options.allowHosts, runOptionName("allowHosts")),
  });
  installEdgeGuards();
  guardFetchLazily();
}
