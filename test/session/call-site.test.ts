import { mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { userCallSite } from "../../src/base/call-site.js";

const root = join(import.meta.dirname, "../..");

test("the user's frame is found past tooltrace's own, also through a linked checkout and source-mapped build paths", () => {
  const linked = join(mkdtempSync(join(tmpdir(), "tooltrace-link-")), "tooltrace");
  symlinkSync(root, linked, "dir");
  const stack = [
    "Error",
    `    at userCallSite (file://${root}/dist/chunks/../../src/base/call-site.ts:30:11)`,
    `    at createSession (${linked}/src/session/create-session.ts:27:15)`,
    `    at build (${linked}/dist/chunks/core.js:100:3)`,
    "    at /app/test/orders.eval.ts:14:19",
  ].join("\n");
  expect(userCallSite(stack)).toBe("/app/test/orders.eval.ts:14:19");
});
