import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { LLMock } from "@copilotkit/aimock";
import OpenAI from "openai";
import { createLlmAnswer, serveOnLoopback } from "tooltrace/wire";
import { formatNs, ratioWithSpread, withSpread } from "./stats.js";

const REQUESTS_PER_SAMPLE = 100;
const SAMPLES = 20;
const MESSAGES = [{ role: "user" as const, content: "What tasks do I have?" }];
const TEXT = "You have 2 tasks: Buy milk and Walk dog.";

/** A bare `node:http` server answering every request with the same bytes: the floor for any mock over a socket. */
async function bareServer(body: string, contentType: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(200, { "content-type": contentType });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function requests(client: OpenAI, stream: boolean): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < REQUESTS_PER_SAMPLE; i++) {
    if (stream) {
      let text = "";
      for await (const chunk of await client.chat.completions.create({ model: "gpt-4o-mini", messages: MESSAGES, stream: true }))
        text += chunk.choices[0]?.delta.content ?? "";
      if (text !== TEXT) throw new Error(`unexpected stream: ${text}`);
    } else {
      const completion = await client.chat.completions.create({ model: "gpt-4o-mini", messages: MESSAGES });
      if (completion.choices[0]?.message.content !== TEXT) throw new Error("unexpected completion");
    }
  }
  return Number(process.hrtime.bigint() - started) / REQUESTS_PER_SAMPLE;
}

/** The bytes a server answers one request with, read raw, for the bare server to repeat. */
async function bytesOf(url: string, stream: boolean): Promise<{ body: string; contentType: string }> {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer x" },
    body: JSON.stringify({ model: "gpt-4o-mini", messages: MESSAGES, stream }),
  });
  return { body: await response.text(), contentType: response.headers.get("content-type") ?? "application/json" };
}

/**
 * tooltrace's wire mock on a loopback socket against CopilotKit's aimock (a standalone LLM mock server), with
 * the real `openai` client, JSON and streamed; each beside a bare `node:http` server sending its own bytes.
 * Samples rotate the order of the four servers so drift hits all alike.
 */
export async function wireVsAimock() {
  const aimock = new LLMock({ port: 0, logLevel: "silent" } as ConstructorParameters<typeof LLMock>[0]);
  aimock.onMessage("What tasks do I have?", { content: TEXT });
  await aimock.start();
  const ours = await serveOnLoopback(createLlmAnswer({ respond: TEXT }).answer);
  const results: Record<string, Record<string, number[]>> = {};
  try {
    for (const stream of [false, true]) {
      const bareOurs = await bareServer(...(Object.values(await bytesOf(ours.url, stream)) as [string, string]));
      const bareAimock = await bareServer(...(Object.values(await bytesOf(aimock.url, stream)) as [string, string]));
      const targets = {
        tooltrace: ours.url,
        aimock: aimock.url,
        "bare (tooltrace's bytes)": bareOurs.url,
        "bare (aimock's bytes)": bareAimock.url,
      };
      const clients = Object.fromEntries(
        Object.entries(targets).map(([name, url]) => [name, new OpenAI({ apiKey: "x", baseURL: `${url}/v1`, maxRetries: 0 })]),
      );
      const samples: Record<string, number[]> = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
      const names = Object.keys(targets);
      for (let round = 0; round < SAMPLES + 3; round++) {
        const order = round % 2 === 0 ? names : [...names].reverse();
        for (const name of order) {
          const ns = await requests(clients[name] as OpenAI, stream);
          if (round >= 3) samples[name]?.push(ns);
        }
      }
      results[stream ? "streamed" : "json"] = samples;
      await bareOurs.close();
      await bareAimock.close();
    }
  } finally {
    await ours.close();
    await aimock.stop();
  }
  return results;
}

export function reportWireVsAimock(results: Awaited<ReturnType<typeof wireVsAimock>>): string {
  const lines = ["chat completion over a loopback socket, the real openai client, median per request (IQR):"];
  for (const [mode, byServer] of Object.entries(results)) {
    const ours = byServer.tooltrace ?? [];
    const theirs = byServer.aimock ?? [];
    lines.push(
      `  ${mode}: tooltrace ${withSpread(ours, formatNs)}, ${ratioWithSpread(ours, byServer["bare (tooltrace's bytes)"] ?? [])} its bare server`,
      `  ${mode}: aimock    ${withSpread(theirs, formatNs)}, ${ratioWithSpread(theirs, byServer["bare (aimock's bytes)"] ?? [])} its bare server`,
      `  ${mode}: tooltrace/aimock ${ratioWithSpread(ours, theirs)}`,
    );
  }
  return lines.join("\n");
}

if (process.argv[1] === import.meta.filename) console.log(reportWireVsAimock(await wireVsAimock()));
