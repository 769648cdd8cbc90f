// The token: HMAC-signed, short-lived, accepted once. Each way a token can be wrong is refused for its own reason.
import { randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import { MAX_TOKEN_LIFETIME_MS } from "tooltrace/server";
import { ReplayGuard } from "../../src/server/replay-guard.js";
import { type Grant, randomId, signToken, verifyToken } from "../../src/server/token.js";

const secret = randomBytes(32).toString("base64url");
const t0 = 1_700_000_000_000;
const grant = (overrides: Partial<Grant> = {}): Grant =>
  ({
    purpose: "turn",
    sid: "s",
    jti: randomId(),
    iat: t0,
    exp: t0 + 60_000,
    strict: true,
    stubs: [{ id: "r", tool: "t", outcome: { response: 1 } }],
    ...overrides,
  }) as Grant;

describe("verifyToken", () => {
  test("gives back exactly the grant that was signed, while it is valid", () => {
    const signed = grant();
    expect(verifyToken(secret, signToken(secret, signed), t0 + 1_000)).toEqual({ grant: signed });
    const calls: Grant = { purpose: "calls", sid: "s", jti: randomId(), iat: t0, exp: t0 + 1_000, for: "abc" };
    expect(verifyToken(secret, signToken(secret, calls), t0)).toEqual({ grant: calls });
  });

  test("refuses a token signed with another secret, and any change to a signed one", () => {
    const token = signToken(secret, grant());
    expect(verifyToken(randomBytes(32).toString("base64url"), token, t0)).toEqual({ refused: "forged" });
    const [version, payload, mac] = token.split(".") as [string, string, string];
    const flipped = `${payload.slice(0, 10)}${payload[10] === "A" ? "B" : "A"}${payload.slice(11)}`;
    expect(verifyToken(secret, `${version}.${flipped}.${mac}`, t0)).toEqual({ refused: "forged" });
    expect(verifyToken(secret, `${version}.${payload}.${mac.slice(0, -1)}`, t0)).toEqual({ refused: "forged" });
    expect(verifyToken(secret, `${version}.${payload}.${mac}x`, t0)).toEqual({ refused: "forged" });
  });

  test("refuses what is not a token at all", () => {
    for (const token of ["", "tt1", "tt1.a", "tt2.a.b", "tt1.a.b.c", `tt1.${"a".repeat(13_000)}.b`]) {
      expect(verifyToken(secret, token, t0)).toEqual({ refused: "malformed" });
    }
    // Signed, but the payload is not a grant: checked after the signature, so only the secret's holder gets here.
    const notAGrant = { ...grant(), purpose: "everything" } as unknown as Grant;
    expect(verifyToken(secret, signToken(secret, notAGrant), t0)).toEqual({ refused: "malformed" });
  });

  test("refuses an expired token, one issued in the future, and one whose lifetime is over the limit", () => {
    expect(verifyToken(secret, signToken(secret, grant()), t0 + 60_000)).toEqual({ refused: "expired" });
    expect(verifyToken(secret, signToken(secret, grant({ iat: t0 + 120_000, exp: t0 + 150_000 })), t0)).toEqual({
      refused: "issued in the future",
    });
    const long = grant({ exp: t0 + MAX_TOKEN_LIFETIME_MS + 1 });
    expect(verifyToken(secret, signToken(secret, long), t0)).toEqual({ refused: "lifetime over the limit" });
  });
});

describe("ReplayGuard", () => {
  test("admits a token id once until it expires", () => {
    const guard = new ReplayGuard();
    expect(guard.admit("a", t0 + 1_000, t0)).toBe("admitted");
    expect(guard.admit("a", t0 + 1_000, t0 + 500)).toBe("replayed");
    expect(guard.admit("b", t0 + 1_000, t0 + 500)).toBe("admitted");
  });

  test("full of live ids, it refuses new tokens rather than forget one; expired ids make room", () => {
    const guard = new ReplayGuard(2);
    expect(guard.admit("a", t0 + 1_000, t0)).toBe("admitted");
    expect(guard.admit("b", t0 + 5_000, t0)).toBe("admitted");
    expect(guard.admit("c", t0 + 5_000, t0)).toBe("full");
    expect(guard.admit("a", t0 + 1_000, t0)).toBe("replayed");
    expect(guard.admit("c", t0 + 5_000, t0 + 2_000)).toBe("admitted");
    expect(guard.admit("b", t0 + 5_000, t0 + 2_000)).toBe("replayed");
  });
});
