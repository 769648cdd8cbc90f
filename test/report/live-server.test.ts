import { request } from "node:http";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type RerunRequest, startViewerServer, type ViewerServer } from "../../src/report/live-server.js";
import { reportData } from "../../src/report/report-data.js";
import { viewerHtml } from "../../src/report/viewer-html.js";

let server: ViewerServer;
let host = "";
let token = "";
const asked: RerunRequest[] = [];

beforeAll(async () => {
  server = await startViewerServer({
    page: (t) => {
      token = t;
      return viewerHtml(reportData([]), { token: t });
    },
    snapshot: () => ({ first: true }),
    rerun: (request) => {
      asked.push(request);
      return request.id === "gone" ? { ok: false, status: 404, message: "no such test" } : { ok: true };
    },
  });
  host = new URL(server.url).host;
});
afterAll(() => server.close());

interface Sent {
  readonly path: string;
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

/** A raw request: its status and body (the first `until` bytes of a stream). */
function send(sent: Sent, until?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const [hostname, port] = host.split(":");
    const req = request(
      { hostname, port, path: sent.path, method: sent.method ?? "GET", headers: { host, ...sent.headers } },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
          if (until !== undefined && body.includes(until)) {
            response.destroy();
            resolve({ status: response.statusCode ?? 0, body });
          }
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end(sent.body);
  });
}

const rerun = (body: string, headers: Record<string, string> = {}) =>
  send({
    path: "/rerun",
    method: "POST",
    body,
    headers: { origin: `http://${host}`, "content-type": "application/json", "x-tooltrace-token": token, ...headers },
  });

test("the page: served with its token, under the viewer's policy plus connect-src 'self'; other methods refused", async () => {
  const page = await send({ path: "/" });
  expect(page.status).toBe(200);
  expect(page.body).toContain(`"token":"${token}"`);
  expect(page.body).toContain("script-src 'unsafe-inline'; connect-src 'self'");
  expect((await send({ path: "/index.html", method: "HEAD" })).status).toBe(200);
  expect((await send({ path: "/", method: "POST" })).status).toBe(405);
  expect((await send({ path: "/rerun", method: "OPTIONS" })).status).toBe(405);
  expect((await send({ path: "/../../etc/passwd" })).status).toBe(404);
  expect((await send({ path: "/", headers: { host: "localhost" } })).status).toBe(403);
});

test("events: only with the token; the snapshot first, then what is pushed", async () => {
  expect((await send({ path: "/events?token=nope" })).status).toBe(403);
  const stream = send({ path: `/events?token=${token}` }, "event: test");
  await new Promise((resolve) => setTimeout(resolve, 200));
  server.push("test", { id: "a" });
  const { status, body } = await stream;
  expect(status).toBe(200);
  expect(body).toBe('event: report\ndata: {"first":true}\n\nevent: test\ndata: {"id":"a"}\n\n');
});

test("a rerun: from its own origin with the token, as JSON of a known shape; the handler's refusal is passed on", async () => {
  expect((await rerun('{"what":"test","id":"a"}')).status).toBe(202);
  expect(asked).toEqual([{ what: "test", id: "a" }]);
  expect((await rerun('{"what":"test","id":"a"}', { origin: "http://evil.example" })).status).toBe(403);
  expect((await rerun('{"what":"test","id":"a"}', { "x-tooltrace-token": "" })).status).toBe(403);
  expect((await rerun('{"what":"test","id":"a"}', { "content-type": "text/plain" })).status).toBe(415);
  expect((await rerun('{"what":"everything"}')).status).toBe(400);
  expect((await rerun('{"what":"test"}')).status).toBe(400);
  const refused = await rerun('{"what":"file","id":"gone"}');
  expect(refused).toEqual({ status: 404, body: "no such test" });
  expect(asked).toHaveLength(2);
});
