import { createOpenAI } from "@ai-sdk/openai";
import { generateText, stepCountIs, tool } from "ai";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { createSession } from "tooltrace";
import { type LlmServer, startLlmServer } from "tooltrace/msw";
import { createLlmAnswer, serveOnLoopback } from "tooltrace/wire";

// Every planted value is distinct, so a scan of the files says which form leaked.
const planted = new Map<string, string>();
const nonce = Math.random().toString(36).slice(2, 8);
function plant(form: string): string {
  const value = `planted${String(planted.size + 1).padStart(2, "0")}x${nonce}Q`;
  planted.set(form, value);
  return value;
}

const ENV_NAME = "TOOLTRACE_TEST_SERVICE_TOKEN";
const API_KEY = `sk-proj-${nonce}Aa0Bb1Cc2Dd3Ee4Ff5Gg6Hh7`;
const USER_VALUE = plant("a value the user names in redact.values");
planted.set("the client's API key", API_KEY);

let wire: LlmServer;
let service: Server;
let serviceUrl: string;
beforeAll(async () => {
  process.env[ENV_NAME] = plant("an environment variable named like a token");
  // The service a tool calls echoes what it was sent, with secrets of its own in the answer.
  service = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      response.setHeader("content-type", "application/json");
      response.setHeader("set-cookie", `sid=${plant("a set-cookie header")}`);
      response.end(
        JSON.stringify({
          refresh_token: plant("refresh_token in a response body"),
          accessToken: plant("accessToken in a response body"),
          echoedAuthorization: request.headers.authorization,
          echoedBody: body,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => service.listen(0, "127.0.0.1", resolve));
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  wire = startLlmServer();
});
afterAll(async () => {
  delete process.env[ENV_NAME];
  wire.close();
  await new Promise((resolve) => service.close(resolve));
});

/** What the agent's tools return, with a secret in each form a real result may carry one. */
function secretResult() {
  return {
    accessToken: plant("accessToken"),
    refreshToken: plant("refreshToken"),
    clientSecret: plant("clientSecret"),
    sessionToken: plant("sessionToken"),
    idToken: plant("idToken"),
    privateKey: plant("privateKey"),
    auth_token: plant("auth_token"),
    session_token: plant("session_token"),
    client_secret: plant("client_secret"),
    api_key: plant("api_key"),
    apiKey: plant("apiKey"),
    "X-Api-Key": plant("X-Api-Key as a field"),
    ACCESS_TOKEN: plant("ACCESS_TOKEN"),
    "access-token": plant("access-token"),
    Password: plant("Password"),
    secretKey: plant("secretKey"),
    awsSecretAccessKey: plant("awsSecretAccessKey"),
    auth: plant("auth"),
    sig: plant("sig as a field"),
    jwt: plant("jwt"),
    cookie: plant("cookie as a field"),
    token: [plant("token holding an array")],
    password: { value: plant("password holding an object") },
    credentials: { user: "ada", pass: plant("credentials holding an object") },
    otp: Number(`9${String(planted.size).padStart(7, "1")}`),
    notes: [
      `see https://api.example.test/v1/items?api_key=${plant("api_key in a URL inside a string")}&page=2`,
      `callback https://app.example.test/cb#access_token=${plant("access_token in a URL fragment")}&state=1`,
      `https://files.example.test/token/${plant("a URL path segment after /token/")}/download`,
      `https://bucket.example.test/object?X-Amz-Signature=${plant("X-Amz-Signature")}&X-Amz-Date=20260101`,
      `https://cdn.example.test/file?sig=${plant("sig in a URL")}`,
      `https://api.example.test/x?auth=${plant("auth in a URL")}`,
      `https://api.example.test/maps?key=${plant("key in a URL query")}`,
      `postgres://ada:${plant("a password in a URL's userinfo")}@db.example.test/app`,
      JSON.stringify({ api_key: plant('{"api_key": ...} inside a JSON string'), page: 1 }),
      `Authorization: Bearer ${plant("a Bearer token in text")}`,
      `Authorization: Basic ${plant("a Basic credential in text")}`,
      `retrying with token=${plant("token=... in a log line")} after 401`,
      `{'client_secret': '${plant("a single-quoted pair in text")}'}`,
      `connected with ${process.env[ENV_NAME]}`,
      `loaded ${USER_VALUE}`,
    ],
  };
}

const tools = {
  lookup: tool({
    description: "Looks an account up.",
    inputSchema: z.object({ accessToken: z.string() }),
    execute: async () => secretResult(),
  }),
  call_service: tool({
    description: "Calls the account service.",
    inputSchema: z.object({}),
    execute: async () => {
      const url = `${serviceUrl}/token/${plant("a path segment of a recorded request")}/items?api_key=${plant("api_key in a recorded URL")}&X-Amz-Signature=${plant("X-Amz-Signature in a recorded URL")}&auth=${plant("auth in a recorded URL")}`;
      const json = await fetch(url, {
        method: "POST",
        headers: {
          authorization: `Bearer ${plant("a request's authorization header, echoed back")}`,
          "x-api-key": plant("an x-api-key header"),
          cookie: `session=${plant("a cookie header")}`,
          "content-type": "application/json",
        },
        body: JSON.stringify({
          password: plant("password in a request body"),
          nested: { clientSecret: plant("clientSecret deep in a request body") },
        }),
      }).then((response) => response.json());
      const form = await fetch(`${serviceUrl}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `grant_type=refresh&client_secret=${plant("client_secret in a form body")}&refreshToken=${plant("refreshToken in a form body")}`,
      }).then((response) => response.json());
      return { json, form };
    },
  }),
  fail: tool({
    description: "Fails.",
    inputSchema: z.object({}),
    execute: async (): Promise<string> => {
      throw new Error(
        `GET https://api.example.test/items?api_key=${plant("api_key in an error message")} failed; token=${plant("token=... in an error message")}`,
      );
    },
  }),
};

function dir(): string {
  return mkdtempSync(join(tmpdir(), "tooltrace-secrets-"));
}

/** Every byte of every file under `folder`. */
function allBytes(folder: string): string {
  return readdirSync(folder)
    .map((name) => readFileSync(join(folder, name), "utf8"))
    .join("\n");
}

describe("a cassette keeps no secret, by name or by value, wherever it appears", () => {
  test("45 and more planted forms: tool inputs and results, errors, HTTP, the model's arguments, an upstream's 401; none reaches the files", async () => {
    const folder = dir();
    const argument = plant("the model's tool-call argument accessToken");
    const provider = await serveOnLoopback(
      createLlmAnswer({
        respond: [
          { toolCalls: [{ name: "lookup", input: { accessToken: argument } }] },
          { toolCalls: [{ name: "call_service", input: {} }] },
          { toolCalls: [{ name: "fail", input: {} }] },
          "All done.",
        ],
      }).answer,
    );
    const openai = createOpenAI({ apiKey: API_KEY });
    const session = createSession({
      tools,
      upstream: provider.url,
      cassette: { mode: "record", path: join(folder, "agent.json"), redact: { values: [USER_VALUE] } },
      agent: async (message) =>
        (await generateText({ model: openai.chat("gpt-4o-mini"), tools, prompt: message, stopWhen: stepCountIs(6) })).text,
    });
    const turn = await session.send("Check my account");
    expect(turn.text).toBe("All done.");
    session.close();
    await provider.close();
    expect(session.violations).toEqual([]);

    // The upstream rejects the key and echoes it, in its message and in its body.
    const rejecting = await serveOnLoopback(async (request) => {
      const key = request.headers.get("authorization")?.replace("Bearer ", "") ?? "";
      return Response.json(
        {
          error: {
            message: `Incorrect API key provided: ${key}. You can find your API key at https://platform.example.test.`,
            type: "invalid_request_error",
            key,
          },
        },
        { status: 401 },
      );
    });
    const rejected = createSession({
      tools,
      upstream: rejecting.url,
      cassette: { mode: "record", path: join(folder, "rejected.json") },
      agent: async (message) =>
        (await generateText({ model: createOpenAI({ apiKey: API_KEY }).chat("gpt-4o-mini"), prompt: message, maxRetries: 0 })).text,
    });
    expect((await rejected.send("hi")).error?.message).toContain("Incorrect API key provided");
    rejected.close();
    await rejecting.close();

    const bytes = allBytes(folder);
    // What happened is all there: every tool call, both requests to the service, the model's exchanges.
    const file = JSON.parse(readFileSync(join(folder, "agent.json"), "utf8")) as {
      tools: Record<string, unknown[]>;
      http: Record<string, unknown[]>;
      llm: unknown[];
    };
    expect(Object.keys(file.tools).sort()).toEqual(["call_service", "fail", "lookup"]);
    expect(Object.keys(file.http)).toHaveLength(2);
    expect(file.llm).toHaveLength(4);
    expect(bytes).toContain("Incorrect API key provided");
    expect(bytes).toContain("[redacted]");
    expect(planted.size).toBeGreaterThanOrEqual(45);
    const leaked = [...planted].filter(([, value]) => bytes.includes(value)).map(([form]) => form);
    expect(leaked).toEqual([]);
  }, 30_000);

  test("a key of a well-known format in a field of no telling name refuses the write and names its JSON pointer", () => {
    const folder = dir();
    const token = `ghp_${"A1b2C3d4E5".repeat(4)}`;
    const record = { lookup: () => ({ note: `deploy with ${token}` }) };
    const session = createSession({
      tools: record,
      cassette: { mode: "record", path: join(folder, "c.json") },
      agent: () => JSON.stringify(record.lookup()),
    });
    return session.send("go").then(() => {
      session.close();
      expect(existsSync(join(folder, "c.json"))).toBe(false);
      expect(session.takeViolations()).toEqual([
        `the cassette ${join(folder, "c.json")} was not written: it would keep what looks like a GitHub token at /tools/lookup/0/output/note.\n  Fix: name the field or the value in \`cassette: { redact: { fields, values } }\`, or stub the call that returns it.`,
      ]);
    });
  });
});
