import { globalSingleton } from "../base/global-state.js";
import type { HostRule } from "../pipeline/hosts.js";

/**
 * The run's network outside strict sessions. Hermetic (the plugin's default): nothing leaves the machine
 * unless the config, a session or the test lets it; loopback stays open. `live` turns it off.
 */
const state = globalSingleton("hermetic", () => ({ on: false, live: false, allowHosts: [] as readonly HostRule[] }));

/** Set by the setup file (the Vitest plugin's, Jest's): the run is hermetic unless `live`. */
export function setHermetic(options: { readonly live: boolean; readonly allowHosts: readonly HostRule[] }): void {
  state.on = true;
  state.live = options.live;
  state.allowHosts = options.allowHosts;
}

/** Whether the run refuses what leaves the machine (outside strict sessions, which refuse more). */
export function hermeticIsOn(): boolean {
  return state.on && !state.live;
}

/** The hosts the run's config lets out (`tooltrace({ allowHosts })`). */
export function runAllowHosts(): readonly HostRule[] {
  return state.allowHosts;
}
