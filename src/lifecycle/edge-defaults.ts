import { resolve, sep } from "node:path";
import { usageError } from "../exits/errors.js";
import { globalSingleton } from "../base/global-state.js";
import { runOptionName } from "../base/runner-form.js";
import { type HostRule, parseHostRules } from "../pipeline/hosts.js";
import type { EdgePolicy } from "../pipeline/edge-policy.js";

const defaults = globalSingleton("edgeDefaults", () => ({ allowHosts: [] as readonly HostRule[] }));

/** The plugin's `allowHosts`: hosts every strict session of the run may reach. */
export function setPluginAllowHosts(hosts: unknown): void {
  defaults.allowHosts = parseHostRules(hosts, runOptionName("allowHosts"));
}

/** A strict session's edge policy: the run's hosts and its own, and the processes it allows. */
export function edgePolicyOf(allowHosts: unknown, allowProcesses: unknown, allowSockets?: unknown): EdgePolicy {
  const own = parseHostRules(allowHosts, "createSession({ allowHosts })");
  if (
    allowProcesses !== undefined &&
    typeof allowProcesses !== "boolean" &&
    !(Array.isArray(allowProcesses) && allowProcesses.every((name) => typeof name === "string" && name !== ""))
  ) {
    throw usageError(
      'createSession({ allowProcesses }): pass true (any worker thread or child process) or the command names to allow, e.g. ["git"].',
    );
  }
  if (
    allowSockets !== undefined &&
    !(Array.isArray(allowSockets) && allowSockets.every((path) => typeof path === "string" && path !== ""))
  ) {
    throw usageError(
      'createSession({ allowSockets }): pass the paths of the Unix sockets to allow, e.g. ["/var/run/postgresql/.s.PGSQL.5432"] (one ending in "/" allows every socket under it).',
    );
  }
  return {
    allowHosts: [...defaults.allowHosts, ...own],
    allowProcesses: (allowProcesses as EdgePolicy["allowProcesses"]) ?? false,
    allowSockets: ((allowSockets as readonly string[] | undefined) ?? []).map((path) =>
      path.endsWith("/") ? `${resolve(path)}${sep}` : resolve(path),
    ),
  };
}
