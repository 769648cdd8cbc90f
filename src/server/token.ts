import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import type { ToolStub } from "../stubs/types.js";

/** The request header that carries a token. */
export const TOKEN_HEADER = "x-tooltrace-token";
/** The response header that marks what the gate answered itself (a refusal, recorded calls), never the app. */
export const GATE_HEADER = "x-tooltrace-gate";
/** The environment variable both sides read the secret from by default. */
export const SECRET_VARIABLE = "TOOLTRACE_SECRET";
/** The shortest secret accepted: a shorter one could be guessed, and every token signed with it forged. */
export const MIN_SECRET_LENGTH = 32;
/** How long a token stays valid by default. */
export const DEFAULT_TOKEN_LIFETIME_MS = 60_000;
/** The longest lifetime a server accepts, whatever the token says. */
export const MAX_TOKEN_LIFETIME_MS = 5 * 60_000;
/** How far ahead of the server's clock a token may say it was issued (the test's machine runs ahead). */
export const CLOCK_SKEW_MS = 30_000;
/** The longest token a server reads: a request's headers must fit Node's default limit (16 KB) with room to spare. */
export const MAX_TOKEN_LENGTH = 12_000;

const VERSION = "tt1";
const MAX_PAYLOAD_BYTES = 1_000_000;

interface GrantBase {
  /** The test's session: calls recorded for a turn are served only to a token of the same session. */
  readonly sid: string;
  /** This token's id: a server accepts each once. */
  readonly jti: string;
  /** Issued and expiring, in ms since the epoch. */
  readonly iat: number;
  readonly exp: number;
}

/** Lets one request run under a session's stub rules. */
export interface TurnGrant extends GrantBase {
  readonly purpose: "turn";
  readonly strict: boolean;
  readonly stubs: readonly ToolStub[];
}

/** Lets its holder fetch what one request (`for`, its token's id) recorded. */
export interface CallsGrant extends GrantBase {
  readonly purpose: "calls";
  readonly for: string;
}

/** What a token grants, signed. */
export type Grant = TurnGrant | CallsGrant;

/** Why a token was refused (a server says which, and never echoes the token). */
export type TokenRefusal = "malformed" | "forged" | "expired" | "issued in the future" | "lifetime over the limit";

/** A fresh token id (also used for session ids): 18 random bytes. */
export function randomId(): string {
  return randomBytes(18).toString("base64url");
}

/**
 * `tt1.<payload>.<mac>`: the grant as JSON, deflated, base64url; then HMAC-SHA256 with the secret over
 * `tt1.<payload>`, base64url. The payload is signed, not encrypted: it holds the rules, no secret.
 */
export function signToken(secret: string, grant: Grant): string {
  const payload = deflateRawSync(Buffer.from(JSON.stringify(grant), "utf8")).toString("base64url");
  return `${VERSION}.${payload}.${mac(secret, payload)}`;
}

/** The grant of a token signed with `secret` that is valid at `now`, or why it is refused. Replays are checked by the caller. */
export function verifyToken(secret: string, token: string, now: number): { readonly grant: Grant } | { readonly refused: TokenRefusal } {
  if (token.length > MAX_TOKEN_LENGTH) return { refused: "malformed" };
  const parts = token.split(".");
  const [version, payload, signature] = parts;
  if (parts.length !== 3 || version !== VERSION || !payload || !signature) return { refused: "malformed" };
  const expected = Buffer.from(mac(secret, payload), "utf8");
  const given = Buffer.from(signature, "utf8");
  // Compared in constant time; only then is the payload read at all.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { refused: "forged" };
  let grant: unknown;
  try {
    grant = JSON.parse(inflateRawSync(Buffer.from(payload, "base64url"), { maxOutputLength: MAX_PAYLOAD_BYTES }).toString("utf8"));
  } catch {
    return { refused: "malformed" };
  }
  if (!isGrant(grant)) return { refused: "malformed" };
  if (grant.exp <= now) return { refused: "expired" };
  if (grant.iat > now + CLOCK_SKEW_MS) return { refused: "issued in the future" };
  if (grant.exp - grant.iat > MAX_TOKEN_LIFETIME_MS) return { refused: "lifetime over the limit" };
  return { grant };
}

function mac(secret: string, payload: string): string {
  return createHmac("sha256", secret).update(`${VERSION}.${payload}`).digest("base64url");
}

function isGrant(value: unknown): value is Grant {
  const grant = value as Readonly<Record<string, unknown>> | null;
  if (grant === null || typeof grant !== "object") return false;
  if (!isId(grant.sid) || !isId(grant.jti) || !Number.isFinite(grant.iat) || !Number.isFinite(grant.exp)) return false;
  if (grant.purpose === "turn") return typeof grant.strict === "boolean" && Array.isArray(grant.stubs);
  return grant.purpose === "calls" && isId(grant.for);
}

function isId(value: unknown): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= 100;
}
