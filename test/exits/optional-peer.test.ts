import { createRequire } from "node:module";
import { expect, test } from "vitest";
import { TooltraceError } from "../../src/exits/errors.js";
import { withPeer } from "../../src/exits/optional-peer.js";

// A missing optional peer is named with its install line, whether it was imported or required (the MCP SDK is
// required, so that Jest's CommonJS mode can load it).
const missing = "@tooltrace-missing/peer";

test.each([
  ["imported", () => import(missing)],
  ["required", async () => createRequire(import.meta.url)("@tooltrace-missing/peer/server.js")],
])("a peer that is not installed, %s: a tooltrace error with its install line", async (_how, load) => {
  const failure = await withPeer("@tooltrace-missing/peer", "A feature", load).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(TooltraceError);
  expect(String((failure as Error).message)).toContain("A feature needs @tooltrace-missing/peer, which is not installed.");
});

test("any other failure to load passes through as it is", async () => {
  const own = new Error("the peer threw while loading");
  await expect(withPeer("@tooltrace-missing/peer", "A feature", () => Promise.reject(own))).rejects.toBe(own);
});
