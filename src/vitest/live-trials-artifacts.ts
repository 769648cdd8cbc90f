import { LIVE_VIEWER_KEY, liveTrials, TRIALS_ARTIFACT, type TrialsArtifact } from "../base/live-trials.js";
import { outValue } from "../exits/out.js";
import type { VitestApi } from "./vitest-api.js";

/**
 * When the watch session's live viewer is on (it provides {@link LIVE_VIEWER_KEY}) and Vitest records artifacts
 * (`recordArtifact`, 4.0.11 and later), each trial that finishes is sent as a test artifact, redacted: Vitest's
 * own reporters print no artifact of a type they do not know. A `vitest run`, or an older Vitest, sends nothing.
 */
export function sendTrialsToLiveViewer(vitest: VitestApi): void {
  const record = vitest.recordArtifact;
  let on = false;
  try {
    on = vitest.inject(LIVE_VIEWER_KEY) === true;
  } catch {}
  liveTrials.sink =
    on && typeof record === "function"
      ? (test, progress) => record(test, outValue("trials progress", { type: TRIALS_ARTIFACT, progress } satisfies TrialsArtifact))
      : undefined;
}
