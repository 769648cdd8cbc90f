import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Grant, randomId, signToken } from "../../../src/server/token.js";
import { TOKEN_HEADER, tooltraceServer } from "../../../src/entries/server.js";

export const secret = randomBytes(32).toString("base64url");
export { TOKEN_HEADER, randomId, signToken, tooltraceServer };

export const turnGrant = (over: Partial<Grant> & Record<string, unknown> = {}): Grant =>
  ({
    purpose: "turn",
    sid: "sess-a",
    jti: randomId(),
    iat: Date.now(),
    exp: Date.now() + 60_000,
    strict: false,
    stubs: [{ id: "stub", tool: "lookup", outcome: { response: { source: "stub" } } }],
    ...over,
  }) as Grant;

export const callsGrant = (turn: { sid: string; jti: string }, over: Record<string, unknown> = {}): Grant =>
  ({ purpose: "calls", sid: turn.sid, jti: randomId(), iat: Date.now(), exp: Date.now() + 60_000, for: turn.jti, ...over }) as Grant;

export const tok = (grant: Grant) => signToken(secret, grant);

/** A tools record whose one tool notes each real run. */
export function lookupTools() {
  const realRuns: string[] = [];
  const tools = {
    lookup: async (input: { id: string }) => {
      realRuns.push(input.id);
      return { source: "real", id: input.id };
    },
  };
  return { tools, realRuns };
}

export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export function nodeServer(handler: (req: IncomingMessage, res: ServerResponse) => unknown) {
  return createServer(handler);
}

export async function fetchCalls(url: string, turn: Grant) {
  const response = await fetch(url, { headers: { [TOKEN_HEADER]: tok(callsGrant(turn)) } });
  return {
    status: response.status,
    body: (await response.json()) as {
      interactions?: { tool?: string; input: unknown; answeredBy?: unknown; late?: boolean }[];
      violations?: string[];
      error?: string;
    },
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
