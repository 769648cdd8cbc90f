import { AsyncLocalStorage } from "node:async_hooks";
import { createServer, request as httpRequest } from "node:http";
import { http } from "msw";
import { setupServer } from "msw/node";
import { test, expect } from "vitest";
const als = new AsyncLocalStorage<string>();
const seen: (string | undefined)[] = [];
const server = setupServer(http.all("*", () => { seen.push(als.getStore()); return undefined; }));
test("als", async () => {
  const up = createServer((req, res) => res.end("x"));
  await new Promise<void>((r) => up.listen(0, "127.0.0.1", r));
  const port = (up.address() as any).port;
  server.listen({ onUnhandledRequest: "bypass" }); (await import("node:module")).syncBuiltinESMExports();
  await als.run("ctx", async () => {
    await fetch(`http://127.0.0.1:${port}/a`);
    await new Promise((resolve, reject) => httpRequest(`http://127.0.0.1:${port}/b`, (res) => { res.resume(); res.on("end", resolve); }).on("error", reject).end());
    await new Promise((resolve, reject) => { const r = httpRequest(`http://127.0.0.1:${port}/c`, { method: "POST" }, (res) => { res.resume(); res.on("end", resolve); }); r.on("error", reject); r.write("body"); r.end(); });
  });
  server.close(); up.close();
  console.log(seen);
});
