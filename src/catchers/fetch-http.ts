import { globalSingleton } from "../base/global-state.js";
import { isResponse } from "../base/web-response.js";
import { refuseAtEdge } from "../edges/edge-decision.js";
import { edgeError } from "../edges/edge-error.js";
import { answerAtFetch, installFetchGuard } from "../edges/fetch-guard.js";
import { mswInterceptsSockets } from "../edges/msw-listening.js";
import { handedBelow } from "../edges/requests-below.js";
import { holdHttpCaught } from "../pipeline/http-catching.js";
import { currentTurnContext } from "../pipeline/turn-context.js";
import { requestView } from "./http-request-view.js";
import { resolveRoute } from "./routes.js";

const NETWORK = { kind: "real" } as const;
const state = globalSingleton("fetchHttpCatcher", () => ({ registered: false }));

/**
 * Catches, under `fetch`, every request made during a session's turn that no other catcher claimed: it is an
 * `http` interaction in the session's log (linked to the tool call it was made in), answered by the session's
 * HTTP mocks or cassette, refused in a strict session, and otherwise sent on the network (where the hermetic
 * run refuses a host beyond loopback). Requests outside every turn meet only the guards. The same as MSW's
 * catcher, for what `fetch` sends, without MSW: registered with the first session, in place at the first
 * `fetch` (at once with `now`: a strict session, or one with HTTP mocks). Returns false where `fetch`'s
 * dispatcher is out of sight (Jest's environments).
 */
export function catchHttpAtFetch(now: boolean): boolean {
  if (now && !installFetchGuard()) return false;
  if (state.registered) return true;
  state.registered = true;
  holdHttpCaught();
  answerAtFetch("http", 1, (url) => {
    const context = currentTurnContext();
    // A request on a session's route is a model call the loopback server records itself.
    if (context === undefined || onSessionRoute(url)) return undefined;
    return async (request, send, at) => {
      const view = await requestView(request);
      const terminal = {
        source: NETWORK,
        live: true,
        run: () => {
          const target = { channel: "http", method: request.method, url: request.url, at } as const;
          // Under msw 3 the user's handlers answer below this layer: what they let through is refused at the socket.
          if (mswInterceptsSockets()) {
            const settled = handedBelow(target);
            return send(request).finally(settled);
          }
          const refusal = refuseAtEdge(target);
          return refusal === undefined ? send(request) : Promise.reject(edgeError(refusal));
        },
      };
      const answered = await context.pipeline.http(
        context,
        { kind: "http", method: request.method, url: request.url, request: view },
        terminal,
      );
      if (isResponse(answered)) return answered;
      throw new TypeError("fetch failed: the session's chain gave no response");
    };
  });
  return true;
}

function onSessionRoute(url: string): boolean {
  try {
    return resolveRoute(new URL(url).pathname).target !== undefined;
  } catch {
    return false;
  }
}
