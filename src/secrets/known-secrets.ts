import { globalSingleton } from "../base/global-state.js";
import { isSecretName } from "./secret-names.js";

/** A value this short is no secret worth the search (and would match everywhere). */
const MIN_LENGTH = 8;
/** Enough for every key a test run sees; the oldest are let go past it. */
const MAX_REMEMBERED = 1000;

const state = globalSingleton("knownSecrets", () => ({ seen: new Set<string>(), version: 0 }));

/** Remembers a secret tooltrace saw (a request's key): from now on it is replaced wherever it appears in a cassette. */
export function rememberSecret(value: string): void {
  const trimmed = value.trim();
  if (trimmed.length < MIN_LENGTH || state.seen.has(trimmed)) return;
  state.seen.add(trimmed);
  state.version += 1;
  if (state.seen.size > MAX_REMEMBERED) state.seen.delete(state.seen.values().next().value as string);
}

/** Remembers the secrets a request carries in its headers: `authorization` (without its scheme), API-key headers, cookies. */
export function rememberHeaderSecrets(headers: Iterable<[string, string]>): void {
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    if (lower === "authorization" || lower === "proxy-authorization") rememberSecret(value.replace(/^\s*\w+\s+/, ""));
    else if (lower === "cookie") for (const part of value.split(";")) rememberSecret(part.slice(part.indexOf("=") + 1));
    else if (isSecretName(lower) || lower.endsWith("-key")) rememberSecret(value);
  }
}

/** Changes whenever a new secret is remembered: what a cached list of `knownSecrets` is checked against. */
export function secretsVersion(): number {
  return state.version;
}

/** Variables named like secrets that are not: the shell's working folders (`PWD` reads as "password"). */
const NOT_SECRETS = new Set(["PWD", "OLDPWD"]);

/** The values of environment variables named like keys, tokens, secrets, passwords or credentials. */
export function environmentSecrets(): string[] {
  const values: string[] = [];
  for (const [name, value] of Object.entries(process.env)) {
    if (NOT_SECRETS.has(name)) continue;
    if (value !== undefined && value.trim().length >= MIN_LENGTH && isSecretName(name)) values.push(value.trim());
  }
  return values;
}

/**
 * Every secret value known now, longest first (so a value that contains another is replaced whole): the
 * ones seen in requests, and `also` (the environment's, the user's own).
 */
export function knownSecrets(also: readonly string[]): string[] {
  const values = new Set(state.seen);
  for (const value of also) if (value.length > 0) values.add(value);
  return [...values].sort((a, b) => b.length - a.length);
}
