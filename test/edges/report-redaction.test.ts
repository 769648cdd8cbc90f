import { describe, expect, test } from "vitest";
import { redactForReport } from "../../src/exits/redact.js";
import { isSecretName } from "../../src/secrets/secret-names.js";

describe("what reports get of a trace, redacted", () => {
  test("a body's own __proto__ key stays data, and a secret under it is redacted", () => {
    const body = JSON.parse('{"__proto__": {"apiKey": "sk-live-0123456789abcdef", "plan": "pro"}, "role": "user"}') as object;
    const redacted = redactForReport({ request: body }) as { request: Record<string, unknown> };
    expect(Object.getPrototypeOf(redacted.request)).toBe(Object.prototype);
    expect(Object.keys(redacted.request)).toEqual(["__proto__", "role"]);
    expect(JSON.stringify(redacted)).toBe('{"request":{"__proto__":{"apiKey":"[redacted]","plan":"pro"},"role":"user"}}');
  });

  test("a name's verdict is the same on every call, in each place (remembered after the first)", () => {
    for (let round = 0; round < 2; round++) {
      expect(isSecretName("accessToken")).toBe(true);
      expect(isSecretName("X-Access-Token")).toBe(true);
      expect(isSecretName("inputTokens")).toBe(false);
      expect(isSecretName("key")).toBe(false);
      expect(isSecretName("key", "query")).toBe(true);
    }
  });
});
