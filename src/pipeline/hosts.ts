import { usageError } from "../exits/errors.js";

/** One entry of `allowHosts`: a host name (or `*.suffix`), with a port or any port. */
export interface HostRule {
  readonly host: string;
  /** `*.example.com`: the suffix, matched by every subdomain (not the bare domain). */
  readonly wildcard: boolean;
  readonly port: number | undefined;
}

const LOOPBACK_NAMES = new Set(["localhost", "::1", "0.0.0.0", "::"]);

/** 127.0.0.0/8, `::1`, `localhost` (and the unspecified addresses, which connect to this machine). */
export function isLoopback(host: string): boolean {
  const bare = unbracket(host).toLowerCase();
  return LOOPBACK_NAMES.has(bare) || bare.endsWith(".localhost") || /^(::ffff:)?127\.\d+\.\d+\.\d+$/.test(bare);
}

/**
 * Parses `allowHosts` (`"api.example.com"`, `"db.internal:5432"`, `"*.corp.example"`, `"[::1]:8080"`),
 * refusing anything else with the entry and what to write instead.
 */
export function parseHostRules(entries: unknown, option: string): readonly HostRule[] {
  if (entries === undefined) return [];
  if (!Array.isArray(entries)) throw usageError(`${option}: pass an array of host names, e.g. ["api.example.com", "db.internal:5432"].`);
  return entries.map((entry: unknown, index) => {
    const parsed = typeof entry === "string" ? parseRule(entry) : undefined;
    if (parsed === undefined) {
      const shown = typeof entry === "string" ? JSON.stringify(entry.slice(0, 80)) : typeof entry;
      throw usageError(
        `${option}[${index}] is ${shown}, not a host: write "name", "name:port", "*.domain" or "[ipv6]:port" (no scheme, no path).`,
      );
    }
    return parsed;
  });
}

function parseRule(entry: string): HostRule | undefined {
  if (entry.length === 0 || entry.length > 255) return undefined;
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:/\s[\]]+)(?::(\d{1,5}))?$/.exec(entry);
  if (match === null) return undefined;
  const port = match[2] === undefined ? undefined : Number(match[2]);
  if (port !== undefined && port > 65_535) return undefined;
  const name = unbracket(match[1] as string).toLowerCase();
  const wildcard = name.startsWith("*.");
  if (name.includes("*") && !(wildcard && !name.slice(2).includes("*"))) return undefined;
  return { host: wildcard ? name.slice(1) : name, wildcard, port };
}

/** Whether `host` (and `port`, when known) is one the rules allow. */
export function hostAllowed(rules: readonly HostRule[], host: string, port: number | undefined): boolean {
  const bare = unbracket(host).toLowerCase();
  return rules.some(
    (rule) =>
      (rule.port === undefined || port === undefined || rule.port === port) &&
      (rule.wildcard ? bare.endsWith(rule.host) && bare.length > rule.host.length : bare === rule.host),
  );
}

/** Whether the rules allow the host (and port) of `url`. */
export function urlAllowed(rules: readonly HostRule[], url: string): boolean {
  if (rules.length === 0) return false;
  try {
    const parsed = new URL(url);
    const port = parsed.port === "" ? (parsed.protocol === "https:" ? 443 : 80) : Number(parsed.port);
    return hostAllowed(rules, parsed.hostname, port);
  } catch {
    return false;
  }
}

function unbracket(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}
