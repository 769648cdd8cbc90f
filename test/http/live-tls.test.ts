import { readFileSync } from "node:fs";
import { type Agent, Agent as HttpsAgent, createServer, get, type Server } from "node:https";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession } from "tooltrace";
import { type LlmServer, startLlmServer } from "tooltrace/msw";

const fixture = (name: string) => readFileSync(join(import.meta.dirname, "../fixtures/tls", name));
const cert = fixture("localhost-cert.pem");
const key = fixture("localhost-key.pem");

// An internal HTTPS service with a self-signed certificate, counting what reaches it.
let service: Server;
let url: string;
const seen: string[] = [];
let llm: LlmServer;
beforeAll(async () => {
  service = createServer({ key, cert }, (request, response) => {
    seen.push(`${request.method} ${request.url}`);
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ secure: true, path: request.url }));
  });
  await new Promise<void>((resolve) => service.listen(0, "127.0.0.1", resolve));
  url = `https://127.0.0.1:${(service.address() as { port: number }).port}`;
  llm = startLlmServer();
});
afterAll(async () => {
  llm.close();
  await new Promise<void>((resolve) => service.close(() => resolve()));
});

/** `https.get` with the options an internal service needs; the body, or the error's message. */
function call(path: string, options: { ca?: Buffer; agent?: Agent }): Promise<string> {
  return new Promise((resolve) => {
    get(`${url}${path}`, options, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => resolve(`${response.statusCode} ${body}`));
    }).on("error", (error) => resolve(`error: ${error.message}`));
  });
}

describe("a live https request during a turn goes out on the client's own connection", () => {
  test("its `ca` and its agent are kept, as outside a turn, and the exchange is traced", async () => {
    expect(await call("/outside", { ca: cert })).toBe('200 {"secure":true,"path":"/outside"}');
    const agent = new HttpsAgent({ ca: cert, keepAlive: true });
    const session = createSession({
      tools: {},
      agent: async () =>
        [await call("/with-ca", { ca: cert }), await call("/with-agent", { agent }), await call("/without-ca", {})].join("\n"),
    });
    const turn = await session.send("go");
    agent.destroy();
    const [withCa, withAgent, withoutCa] = turn.text.split("\n");
    expect(withCa).toBe('200 {"secure":true,"path":"/with-ca"}');
    expect(withAgent).toBe('200 {"secure":true,"path":"/with-agent"}');
    // The certificate is still checked: without `ca` the client refuses it, as it would without tooltrace.
    expect(withoutCa).toMatch(/^error: self[- ]signed certificate/);
    expect(seen).toEqual(expect.arrayContaining(["GET /outside", "GET /with-ca", "GET /with-agent"]));
    expect(turn.httpCalls.map((call) => [call.url.replace(url, ""), call.status, call.answeredBy?.kind])).toEqual([
      ["/with-ca", "completed", "real"],
      ["/with-agent", "completed", "real"],
      ["/without-ca", "failed", "real"],
    ]);
    session.close();
  });

  test("a cassette records an internal HTTPS service reached with `ca`, and replays it with the service stopped", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "tooltrace-tls-")), "internal.json");
    const agent = async () => call("/record", { ca: cert });
    const recorder = createSession({ tools: {}, agent, cassette: { mode: "record", path } });
    expect((await recorder.send("go")).text).toBe('200 {"secure":true,"path":"/record"}');
    recorder.close();
    const before = seen.length;
    const replayer = createSession({ tools: {}, agent, cassette: { mode: "replay", path }, strict: true });
    const replayed = await replayer.send("go");
    expect(replayer.takeViolations()).toEqual([]);
    expect(replayed.text).toBe('200 {"secure":true,"path":"/record"}');
    expect(seen.length).toBe(before);
    replayer.close();
  });
});
