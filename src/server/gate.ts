import { message, StubConfigError } from "../exits/errors.js";
import type { BoundTools } from "../catchers/bind-tools.js";
import { LINGER_MS, RecordedRequest } from "./recorded-request.js";
import { RecordedStore } from "./recorded-store.js";
import { ReplayGuard } from "./replay-guard.js";
import { GATE_HEADER, verifyToken } from "./token.js";

/** How long the calls route waits for the request it serves to end (a response still streaming). */
export const CALLS_WAIT_MS = 10_000;

/** The headers of every reply the gate answers itself. */
export const GATE_REPLY_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "application/json",
  "cache-control": "no-store",
  [GATE_HEADER]: "1",
};

/** What the gate answers itself: a refusal, or the calls a request recorded. The body is JSON. */
export interface GateReply {
  readonly status: number;
  readonly body: string;
}

/** What to do with one request. */
export type GateDecision =
  /** No token: served as without the adapter. */
  | { readonly kind: "pass" }
  /** Answered by the gate; the handler never sees it. */
  | { readonly kind: "answer"; readonly reply: Promise<GateReply> }
  /** Served by the handler inside the request's turn context; `end` once the response went out. */
  | { readonly kind: "turn"; readonly request: RecordedRequest };

/** What the gate is built from. */
export interface GateOptions {
  readonly secret: string;
  readonly tools: BoundTools;
  /** Refuse requests without a token (a deployment only tests talk to). */
  readonly requireToken: boolean;
  readonly log: (line: string) => void;
}

/** The most requests whose work may linger after their response at once (see `LINGER_MS`). */
export const MAX_LINGERING = 100;

/**
 * The permission check in front of a handler, the same for every framework: a request with no token is
 * passed on untouched (or refused, with `requireToken`); one whose token is malformed, forged, expired,
 * replayed or for another session is refused with a 403 and one log line; a valid turn token runs the
 * handler under its rules; a valid calls token gets what its request recorded.
 */
export class Gate {
  private readonly replays = new ReplayGuard();
  private readonly store = new RecordedStore();
  /** Requests whose context still holds their rules: ended, and what they left running not yet released. */
  private readonly live = new Set<RecordedRequest>();
  /** Lingering requests let go early since the log last said so, and when it did. */
  private letGo = 0;
  private saidAt = 0;

  constructor(private readonly options: GateOptions) {}

  decide(token: string | undefined, method: string, path: string): GateDecision {
    if (token === undefined || token === "") {
      if (this.options.requireToken) return this.refuse(403, "no token", method, path);
      // Another user: what ended requests left running may serve them from now on, for real.
      this.releaseLingering(undefined);
      return PASS;
    }
    const now = Date.now();
    const verified = verifyToken(this.options.secret, token, now);
    if ("refused" in verified) return this.refuse(403, `the token is ${verified.refused}`, method, path);
    const { grant } = verified;
    this.releaseLingering(grant.sid);
    const admitted = this.replays.admit(grant.jti, grant.exp, now);
    if (admitted === "replayed") return this.refuse(403, "the token was used before (a replay)", method, path);
    if (admitted === "full") return this.refuse(503, "too many live tokens; retry once some expire", method, path);
    if (grant.purpose === "calls") return this.calls(grant.sid, grant.for, method, path, now);
    // A token id whose calls are still kept (its token expired, and the id came again) would replace them.
    if (this.store.get(grant.jti, now) !== undefined) return this.refuse(403, "the token was used before (a replay)", method, path);
    let request: RecordedRequest;
    try {
      request = new RecordedRequest(
        grant,
        this.options.tools,
        `${method} ${path}`,
        (late) => this.options.log(message(late)),
        LINGER_MS,
        () => this.live.delete(request),
      );
    } catch (error) {
      if (!(error instanceof StubConfigError)) throw error;
      return answer(400, error.message);
    }
    this.store.add(grant.jti, request, now);
    this.live.add(request);
    this.boundLingering(now);
    return { kind: "turn", request };
  }

  /**
   * Past {@link MAX_LINGERING} requests whose work lingers after their response, the oldest is let go before
   * its window ends (what it still runs is no longer under its rules), and the log says so, at most once a
   * second: memory stays bounded however many requests arrive in a window.
   */
  private boundLingering(now: number): void {
    let lingering = 0;
    for (const request of this.live) if (request.lingering) lingering += 1;
    for (const request of this.live) {
      if (lingering <= MAX_LINGERING) break;
      if (!request.lingering) continue;
      request.release();
      lingering -= 1;
      this.letGo += 1;
    }
    if (this.letGo > 0 && now - this.saidAt >= 1000) {
      this.options.log(
        message(
          `the deployed agent: ${this.letGo} request${this.letGo === 1 ? "'s" : "s'"} lingering work let go before its ${LINGER_MS / 1000} s window ended (more than ${MAX_LINGERING} requests lingered at once): what they still run is no longer under their rules.`,
        ),
      );
      this.letGo = 0;
      this.saidAt = now;
    }
  }

  /** Forgets every recorded request. */
  close(): void {
    for (const request of [...this.live]) request.release();
    this.store.clear();
  }

  /** Releases the ended requests of every session but `sid` (the same session's next turn keeps them). */
  private releaseLingering(sid: string | undefined): void {
    for (const request of [...this.live]) if (request.lingering && request.sid !== sid) request.release();
  }

  private calls(sid: string, requestId: string, method: string, path: string, now: number): GateDecision {
    const request = this.store.get(requestId, now);
    if (request === undefined)
      return answer(
        404,
        message(`no calls are recorded here for that request: it was never served by this process, or they were fetched or expired.`),
      );
    if (request.sid !== sid) return this.refuse(403, "the token is for another session", method, path);
    // Taken out before waiting, so a second fetch while the request still streams finds nothing.
    this.store.take(requestId);
    return {
      kind: "answer",
      reply: request.ended(CALLS_WAIT_MS).then(() => {
        const body = JSON.stringify(request.toJson());
        request.close();
        return { status: 200, body };
      }),
    };
  }

  private refuse(status: number, why: string, method: string, path: string): GateDecision {
    // The path as JSON, cut short: a decoded `%0A` must not write a second log line.
    const shown = JSON.stringify((path.split("?")[0] ?? "").slice(0, 200));
    this.options.log(message(`tooltrace/server refused ${method} ${shown}: ${why} (${status}).`));
    return answer(status, message(`tooltrace/server refused this request: ${why}.`));
  }
}

const PASS: GateDecision = { kind: "pass" };

function answer(status: number, error: string): GateDecision {
  return { kind: "answer", reply: Promise.resolve({ status, body: JSON.stringify({ error }) }) };
}
