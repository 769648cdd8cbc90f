import { relative, sep } from "node:path";
import { captureUserFrame } from "../base/call-site.js";
import { runnerForm } from "../base/runner-form.js";
import { oneLine } from "../exits/excerpt.js";
import { canonicalAddress, isLoopback, isLoopbackAddress } from "../pipeline/hosts.js";
import { llmApiFix } from "../wire/provider-hosts.js";
import type { EdgeTarget } from "./edge-decision.js";

/** What left, in words: `a TCP connection to api.example.com:443 was opened`. */
export function describeTarget(target: EdgeTarget): string {
  switch (target.channel) {
    case "tcp":
      return `a TCP connection to ${reached(target)} was opened`;
    case "udp":
      return `a UDP datagram to ${reached(target)} was sent`;
    case "dns":
      return `a DNS query for ${JSON.stringify(target.host.slice(0, 100))} was made${target.servers === undefined || target.servers.length === 0 ? "" : ` to ${target.servers.map(([address, port]) => hostPort(address, port)).join(", ")}`}`;
    case "http":
      return `${target.method} ${cut(target.url)} was sent`;
    case "socket":
      return `a connection to the Unix socket ${cut(target.path)} was opened`;
    case "worker":
      return "a worker thread was started (tooltrace cannot see what it sends)";
    case "process":
      return target.programs === undefined
        ? `the child process \`${oneLine(commandName(target.command))}\` was started (tooltrace cannot see what it sends)`
        : `the shell command \`${oneLine(cut(target.command))}\` was started (it runs ${[...new Set(target.programs)].join(", ")}; tooltrace cannot see what they send)`;
  }
}

/** The `allowHosts` entry that lets this target out. */
export function hostEntry(target: EdgeTarget): string {
  if (target.channel === "dns") return target.host.slice(0, 100);
  if (target.channel === "http") {
    try {
      return new URL(target.url).host;
    } catch {
      return cut(target.url);
    }
  }
  if (target.channel === "tcp" || target.channel === "udp")
    return hostPort(named(target) ? target.host : target.address, target.port).slice(0, 100);
  return "";
}

/** Whether a socket's name says where it went: not a loopback name that a `lookup` sent elsewhere. */
function named(target: { readonly host: string; readonly address: string }): boolean {
  return target.host === target.address || !isLoopback(target.host) || isLoopbackAddress(target.address);
}

/** `api.example.com:443 (203.0.113.7)`: the name the socket was given, and the address it reached. */
function reached(target: { readonly host: string; readonly address: string; readonly port: number }): string {
  const shown = hostPort(target.host, target.port);
  return canonicalAddress(target.host) === canonicalAddress(target.address) ? shown : `${shown} (${target.address})`;
}

/**
 * The hermetic guard's refusal: what left, the line that sent it, and the switches that let it out. A
 * provider's API is named, with the model's own switches (`llm`, `upstream`).
 */
export function hermeticRefusal(target: EdgeTarget): string {
  const host = hostEntry(target);
  const llm = llmApiFix(host);
  const line = relativeLine(target.channel === "http" ? target.at?.() : undefined) ?? userLine();
  const what = `${describeTarget(target)}, and tooltrace refused it: tests reach only this machine unless the config, the session or the test lets more out (hermetic by default).`;
  const where = line === undefined ? "" : `\n  Sent from ${line}`;
  const fix = llm ?? `answer it in the test (a stub rule for the tool that makes it, or an HTTP mock), or let it out: ${letOut(host)}.`;
  return `${what}${where}\n  Fix: ${fix}`;
}

/** The switches that let `host` out, in the form of the runner in use (a plain script has only its own). */
function letOut(host: string): string {
  const session = `createSession({ allowHosts: [${JSON.stringify(host)}] })`;
  const form = runnerForm();
  if (form === undefined) return `${session} for this session, or TOOLTRACE_LIVE=1 for a run that may reach the network`;
  const run = form.option(`allowHosts: [${JSON.stringify(host)}]`);
  return `${run} in ${form.config}, ${session} for one session, or ${form.option("live: true")} for a run that may reach the network`;
}

/** The first frame of the stack here that is the user's, relative to the working folder. */
function userLine(): string | undefined {
  return relativeLine(captureUserFrame()?.());
}

function relativeLine(site: string | undefined): string | undefined {
  if (site === undefined) return undefined;
  const shown = relative(process.cwd(), site);
  return shown.startsWith(`..${sep}`) ? site : shown;
}

export function hostPort(host: string, port: number): string {
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}

/** `/usr/bin/curl` → `curl`, the name `allowProcesses` lists. */
export function commandName(command: string): string {
  return command.split(/[\\/]/).pop() ?? command;
}

function cut(text: string): string {
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
