import Anthropic from "@anthropic-ai/sdk";
import dns from "node:dns";
import net from "node:net";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText } from "ai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession, grader, takeRefusals } from "tooltrace";

import { addressBeyondLoopback, type CountingUpstream, startCountingUpstream } from "../fixtures/counting-process.js";

// The plugin's defaults (this project's config is `tooltrace()`): the run is hermetic. A counting upstream in
// a process of its own, on this machine's address beyond loopback, stands for a provider outside the machine.
let outside: CountingUpstream;
let loopback: CountingUpstream;

beforeAll(async () => {
  [outside, loopback] = await Promise.all([startCountingUpstream(addressBeyondLoopback()), startCountingUpstream()]);
}, 30_000);
afterAll(() => {
  outside.stop();
  loopback.stop();
});

/** The lines the upstream printed for HTTP requests (and connections) since `from`. */
const arrived = (upstream: CountingUpstream, from: number) =>
  upstream.events.slice(from).filter((line) => line.startsWith("HTTP") || line.startsWith("TCP"));

/** Three real clients, each pointed at the upstream as at its provider; each returns the model's text. */
const clients: Record<string, (baseUrl: string, message: string) => Promise<string>> = {
  "the OpenAI SDK (Chat Completions)": async (baseUrl, message) => {
    const client = new OpenAI({ apiKey: "sk-test", baseURL: `${baseUrl}/v1` });
    const reply = await client.chat.completions.create({ model: "gpt-5", messages: [{ role: "user", content: message }] });
    return reply.choices[0]?.message.content ?? "";
  },
  "the Anthropic SDK (Messages)": async (baseUrl, message) => {
    const client = new Anthropic({ apiKey: "sk-ant-test", baseURL: baseUrl });
    const reply = await client.messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      messages: [{ role: "user", content: message }],
    });
    return reply.content.map((block) => (block.type === "text" ? block.text : "")).join("");
  },
  "the AI SDK with @ai-sdk/openai (Responses)": async (baseUrl, message) => {
    const provider = createOpenAI({ apiKey: "sk-test", baseURL: `${baseUrl}/v1` });
    return (await generateText({ model: provider("gpt-5"), prompt: message })).text;
  },
};

describe("hermetic by default: nothing leaves the machine unless the test lets it", () => {
  for (const [name, ask] of Object.entries(clients)) {
    test(`${name}: a session with no model scripted never reaches the provider, and the test is told which host`, async () => {
      const from = outside.events.length;
      const session = createSession({ agent: (message: string) => ask(outside.url, message) });
      const turn = await session.send("hello");
      expect(turn.status).toBe("failed");
      expect(turn.modelCalls).toHaveLength(0);
      const [violation, ...others] = session.takeViolations();
      expect(others).toEqual([]);
      expect(violation).toContain(`${outside.host}:${outside.ports.http}`);
      expect(violation).toContain("hermetic by default");
      expect(violation).toMatch(/Fix: .*createSession\(\{ llm \}\)|Fix: .*allowHosts/);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(arrived(outside, from)).toEqual([]);
    });

    test(`${name}: a session's \`llm\` answers it on the wire, without MSW, and the provider sees nothing`, async () => {
      const from = outside.events.length;
      const session = createSession({ agent: (message: string) => ask(outside.url, message), llm: ["Hello from the mock."] });
      const turn = await session.send("hello");
      expect(turn).toSucceed();
      expect(turn.text).toBe("Hello from the mock.");
      expect(turn).toHaveModelCalls(1);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(arrived(outside, from)).toEqual([]);
    });
  }

  test("a tool's HTTP beyond loopback is refused, naming the host and the switch; allowHosts lets it out", async () => {
    const fetchData = async () => (await fetch(`${outside.url}/data`)).text();
    const from = outside.events.length;
    const refused = createSession({ agent: async () => fetchData() });
    const turn = await refused.send("go");
    expect(turn.status).toBe("failed");
    const [violation] = refused.takeViolations();
    expect(violation).toContain(`GET ${outside.url}/data was sent, and tooltrace refused it`);
    expect(violation).toContain(`allowHosts: ["${outside.host}:${outside.ports.http}"]`);
    // The line that made the call: this file's, where `fetch` was called.
    expect(violation).toMatch(/\n {2}Sent from test\/edges\/hermetic\.test\.ts:\d+:\d+/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(arrived(outside, from)).toEqual([]);

    const allowed = createSession({ agent: async () => fetchData(), allowHosts: [`${outside.host}:${outside.ports.http}`] });
    const reached = await allowed.send("go");
    expect(reached).toSucceed();
    expect(reached.text).toBe('{"ok":true}');
    // The counting process reports what it received on a channel of its own: it may come after the response.
    await expect.poll(() => outside.events.slice(from)).toContain("HTTP GET /data");
  });

  test("loopback stays open: a local service is reached from a session and from the test", async () => {
    const from = loopback.events.length;
    const session = createSession({ agent: async () => (await fetch(`${loopback.url}/local`)).text() });
    expect((await session.send("go")).text).toBe('{"ok":true}');
    expect(await (await fetch(`${loopback.url}/from-the-test`)).text()).toBe('{"ok":true}');
    await expect.poll(() => loopback.events.slice(from)).toEqual(expect.arrayContaining(["HTTP GET /local", "HTTP GET /from-the-test"]));
  });

  test("outside any session the test's own request is refused too, and the test fails with it", async () => {
    const from = outside.events.length;
    await expect(fetch(`${outside.url}/from-the-test`)).rejects.toThrow("fetch failed");
    const refusals = takeRefusals();
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toContain(`GET ${outside.url}/from-the-test was sent, and tooltrace refused it`);
    expect(arrived(outside, from)).toEqual([]);
  });

  test("a DNS query for a name beyond the machine fails as a failed lookup does, a tick later, never a throw", async () => {
    // A throw from inside a socket's connect escapes the caller (MSW 3's socket layer hung on it).
    let returned = false;
    const viaCallback = new Promise<Error | null>((resolve) => {
      dns.lookup("refused-by-tooltrace.example", (error) => resolve(error));
      returned = true;
    });
    expect(returned).toBe(true);
    expect((await viaCallback)?.message).toContain('a DNS query for "refused-by-tooltrace.example" was made, and tooltrace refused it');
    await expect(dns.promises.resolve4("refused-by-tooltrace.example")).rejects.toThrow("tooltrace refused it");
    const socket = net.connect({ host: "refused-by-tooltrace.example", port: 443 });
    const failed = await new Promise<Error>((resolve) => socket.once("error", resolve));
    expect(failed.message).toContain('"refused-by-tooltrace.example" was made, and tooltrace refused it');
    expect(takeRefusals()).toHaveLength(3);
  });

  test("a session's `llm` serves ctx.callLLM for a grader, with an agent that never uses the wire", async () => {
    const session = createSession({
      agent: () => "The flag was enable_canary_bypass.",
      llm: () => "PASS: it names the flag.",
      middleware: [grader({ expected: "enable_canary_bypass", by: "llm" })],
    });
    const turn = await session.send("Which flag was reverted?");
    expect(turn).toSucceed();
    expect(turn).toHaveResult("grader", { pass: true });
  });
});
