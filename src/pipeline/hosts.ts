import { readFileSync } from "node:fs";
import { usageError } from "../exits/errors.js";

/** One entry of `allowHosts`: a host name (or `*.suffix`), with a port or any port. */
export interface HostRule {
  readonly host: string;
  /** `*.example.com`: the suffix, matched by every subdomain (not the bare domain). */
  readonly wildcard: boolean;
  readonly port: number | undefined;
}

/**
 * Whether `address`, an IP address as a socket reaches it, is this machine's loopback: 127.0.0.0/8, `::1` in
 * every spelling (`0:0:0:0:0:0:0:1`), IPv4-mapped loopback (`::ffff:127.0.0.1`, `::ffff:7f00:1`), and the
 * unspecified addresses (`0.0.0.0`, `::`), which connect to this machine. A name is never an address here.
 */
export function isLoopbackAddress(address: string): boolean {
  const bare = unbracket(address).toLowerCase().replace(/%.*$/, "");
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(bare)) return bare.startsWith("127.") || bare === "0.0.0.0";
  const groups = ipv6Groups(bare);
  if (groups === undefined) return false;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  if (zeros(0, 7) && (groups[7] === 1 || groups[7] === 0)) return true;
  // ::ffff:127.0.0.0/104: the IPv4-mapped form of 127.0.0.0/8.
  return zeros(0, 5) && groups[5] === 0xffff && (groups[6] ?? 0) >> 8 === 127;
}

/** An IPv6 address as its eight 16-bit groups (a trailing dotted IPv4 as two), or `undefined` for anything else. */
function ipv6Groups(text: string): number[] | undefined {
  if (!text.includes(":") || !/^[0-9a-f:.]+$/.test(text)) return undefined;
  let body = text;
  const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(body);
  const tail: number[] = [];
  if (dotted !== null) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    if ([a, b, c, d].some((octet) => octet > 255)) return undefined;
    tail.push((a << 8) | b, (c << 8) | d);
    body = body.slice(0, dotted.index);
    if (body.endsWith(":") && !body.endsWith("::")) body = body.slice(0, -1);
  }
  const halves = body.split("::");
  if (halves.length > 2) return undefined;
  const parse = (part: string) =>
    part === "" ? [] : part.split(":").map((group) => (/^[0-9a-f]{1,4}$/.test(group) ? Number.parseInt(group, 16) : Number.NaN));
  const head = parse(halves[0] ?? "");
  const rest = halves.length === 2 ? parse(halves[1] ?? "") : [];
  const missing = 8 - tail.length - head.length - rest.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return undefined;
  const groups = [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...rest, ...tail];
  return groups.length === 8 && groups.every((group) => Number.isInteger(group)) ? groups : undefined;
}

/**
 * Whether a host as written (a URL's, a socket's name) can only be this machine: a loopback address, or
 * `localhost` itself (the hosts file's). Only a first look, for a request not yet connected: what a
 * connection reaches is decided on its address ({@link isLoopbackAddress}), whatever name it was given.
 */
export function isLoopback(host: string): boolean {
  const bare = unbracket(host).toLowerCase();
  return bare === "localhost" || isLoopbackAddress(bare);
}

let hostsFile: ReadonlySet<string> | undefined;

/**
 * Whether the system's hosts file (`/etc/hosts`) names `host` (`localhost` always): the system's lookup
 * answers it there, without a DNS server. Read once, at the first lookup a guard decides.
 */
export function inHostsFile(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  if (name === "localhost") return true;
  if (hostsFile === undefined) {
    let text = "";
    try {
      text = readFileSync(
        process.platform === "win32" ? `${process.env.SystemRoot ?? "C:\\Windows"}\\System32\\drivers\\etc\\hosts` : "/etc/hosts",
        "utf8",
      );
    } catch {
      // No hosts file: only `localhost`.
    }
    hostsFile = new Set(
      text
        .split("\n")
        .flatMap((line) => line.replace(/#.*$/, "").trim().split(/\s+/).slice(1))
        .map((entry) => entry.toLowerCase()),
    );
  }
  return hostsFile.has(name);
}

/**
 * `address` in one spelling for comparing two addresses: an IPv4-mapped IPv6 address as its IPv4 address,
 * any other IPv6 address as its eight groups, lower case; a name as it is, lower case.
 */
export function canonicalAddress(address: string): string {
  const bare = unbracket(address).toLowerCase().replace(/%.*$/, "");
  const groups = ipv6Groups(bare);
  if (groups === undefined) return bare;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff)
    return [(groups[6] ?? 0) >> 8, (groups[6] ?? 0) & 255, (groups[7] ?? 0) >> 8, (groups[7] ?? 0) & 255].join(".");
  return groups.map((group) => group.toString(16)).join(":");
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
