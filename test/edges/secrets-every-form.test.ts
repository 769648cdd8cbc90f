import OpenAI from "openai";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { createSession, modelJudge } from "tooltrace";
import { createLlmAnswer, serveOnLoopback } from "tooltrace/wire";
import { Redactor } from "../../src/secrets/redactor.js";

// Planted values, distinct per run, so a scan says which one leaked.
const nonce = Math.random().toString(36).slice(2, 8);
const secret = (n: number) => `leak${String(n).padStart(2, "0")}x${nonce}Q`;

function dir(): string {
  return mkdtempSync(join(tmpdir(), "tooltrace-every-form-"));
}

/** The message of the assertion `assert` fails with (a sync or async one). */
async function failureOf(assert: () => unknown): Promise<string> {
  try {
    await assert();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("the assertion passed: it was meant to fail");
}

/** A session whose one tool returns its token as most HTTP clients hand it over: a string holding JSON. */
function jsonTokenSession(token: string, cassette?: string) {
  const tools = { login: async (_input: { user: string }) => JSON.stringify({ access_token: token, expires_in: 3600 }) };
  return createSession({
    tools,
    ...(cassette ? { cassette: { mode: "record" as const, path: cassette } } : {}),
    agent: async () => {
      await tools.login({ user: "ada" });
      return "Logged in.";
    },
  });
}

describe("a secret in every form a value can take, out of every message", () => {
  // Leak 1: a token in a string holding JSON is redacted in the cassette, printed whole by a failing toHaveCalledTool.
  test("a token inside a JSON string: redacted in the cassette, and in a failing toHaveCalledTool's message", async () => {
    const path = join(dir(), "c.json");
    const session = jsonTokenSession(secret(1), path);
    const turn = await session.send("Log me in");
    session.close();
    expect(readFileSync(path, "utf8")).not.toContain(secret(1));
    const message = await failureOf(() => expect(turn).toHaveCalledTool("login", { count: 2 }));
    expect(message).toContain("access_token");
    expect(message).not.toContain(secret(1));
  });

  // Leak 1: the same token printed in the prompt a failing modelJudge shows.
  test("a token inside a JSON string: not in the prompt a failing modelJudge shows", async () => {
    const turn = await jsonTokenSession(secret(2)).send("Log me in");
    const judge = modelJudge({ criteria: "It logs in.", ask: async () => '{"score": 0, "reason": "no"}' });
    const message = await failureOf(() => expect(turn).toSatisfyJudge(judge));
    expect(message).toContain("The judge's prompt:");
    expect(message).not.toContain(secret(2));
  });

  // Leak 2: an output cut at 80 characters in a matcher's line keeps the start of the token it cut.
  test("an output cut in a matcher's message leaves no prefix of the token it cut", async () => {
    const token = `${secret(3)}abcdefghijklmnopqrstuvwxyz0123456789`;
    const tools = { session: async () => ({ note: "x".repeat(30), session_token: token }) };
    const turn = await createSession({ tools, agent: async () => String(await tools.session()) }).send("go");
    const message = await failureOf(() => expect(turn).toHaveCalledTool("session", { count: 2 }));
    expect(message).toContain("session_token");
    expect(message).not.toContain(token.slice(0, 12));
  });

  // Leak 4: redacting a text twice adds a `]` each time (`[redacted]]`).
  test("redacting a text twice is redacting it once", () => {
    const redactor = new Redactor();
    const once = redactor.text("retrying with password=hunter2secret after 401");
    expect(once).not.toContain("hunter2secret");
    expect(redactor.text(once)).toBe(once);
  });

  // Leaks 4 and 5: a tool input holding `password=...` is redacted twice on write (`[redacted]]`), so it never replays.
  test("a cassette recorded from a tool input holding password=... replays", async () => {
    const path = join(dir(), "tools.json");
    const session = (mode: "record" | "replay") => {
      const tools = { run: async (_input: { command: string }) => "ok" };
      const agent = async () => tools.run({ command: "login password=hunter2secret" });
      return createSession({ tools, agent, cassette: { mode, path } });
    };
    const recorder = session("record");
    await recorder.send("go");
    recorder.close();
    expect(readFileSync(path, "utf8")).not.toContain("hunter2secret");
    const replayer = session("replay");
    expect((await replayer.send("go")).error?.message).toBeUndefined();
    expect(replayer.takeViolations()).toEqual([]);
  });

  // Leak 5: a prompt holding `password=...` is recorded redacted, then compared redacted against the live one.
  test("a cassette recorded from a prompt holding password=... replays", async () => {
    const provider = await serveOnLoopback(createLlmAnswer({ respond: "Signed in." }).answer);
    const path = join(dir(), "llm.json");
    const agent = async (message: string) => {
      const client = new OpenAI({ apiKey: "sk-test", maxRetries: 0 });
      const completion = await client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: message }] });
      return completion.choices[0]?.message.content ?? "";
    };
    const prompt = "Sign in as ada with password=s3cretvalue";
    const recorder = createSession({ agent, upstream: provider.url, cassette: { mode: "record", path } });
    expect((await recorder.send(prompt)).text).toBe("Signed in.");
    recorder.close();
    await provider.close();
    expect(readFileSync(path, "utf8")).not.toContain("s3cretvalue");

    const replayer = createSession({ agent, upstream: provider.url, cassette: { mode: "replay", path } });
    const replayed = await replayer.send(prompt);
    expect(replayed.error?.message).toBeUndefined();
    expect(replayed.text).toBe("Signed in.");
    expect(replayer.takeViolations()).toEqual([]);
  });
});
