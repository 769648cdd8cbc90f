/// <reference path="./augment.d.ts" preserve="true" />
/**
 * The setup file the `tooltrace()` plugin puts first in Vitest's `setupFiles` (before the user's own): the
 * guards at the process's edges, the matchers, a scope per test and the checks when it ends (`setup-core`).
 * Built, it loads the CommonJS build of its core, a test file's cost of a few milliseconds; from the sources
 * (tooltrace's own tests), the modules themselves.
 */
import { createRequire } from "node:module";
import * as vitest from "vitest";
import type { VitestApi } from "./vitest-api.js";

type Core = { installSetup(vitest: VitestApi, matchers?: object): Promise<void> };

if (import.meta.url.endsWith(".ts")) {
  const [{ installSetup }, { matchers }] = await Promise.all([import("./setup-core.js"), import("../../matchers/all.js")]);
  await installSetup(vitest as unknown as VitestApi, matchers);
} else {
  const core = createRequire(import.meta.url)("./vitest-setup-core.cjs") as Core;
  await core.installSetup(vitest as unknown as VitestApi);
}
