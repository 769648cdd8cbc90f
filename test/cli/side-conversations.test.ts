import OpenAI from "openai";
import { expect, test } from "vitest";
import { createSession, type MockModelRequest } from "tooltrace";
import { serveOnLoopback } from "tooltrace/wire";
import { currentTurnContext } from "../../src/pipeline/turn-context.js";
import { markWireAgent } from "../../src/catchers/wire-agent.js";
import { createAgentProcessAnswer } from "../../src/catchers/wire-answer.js";
import { WireToolCalls } from "../../src/catchers/wire-tool-calls.js";

const lookup = { type: "function" as const, function: { name: "lookup", parameters: { type: "object", properties: {} } } };
const search = { type: "function" as const, function: { name: "search", parameters: { type: "object", properties: {} } } };

// An agent process with a side conversation (Claude Code's Task subagent): the proxy's state is per conversation.
test("a round answered by a stub in one conversation is put back in that conversation only, not in a side conversation", async () => {
  const seen: MockModelRequest[] = [];
  const session = createSession({
    stubs: [{ id: "lookup", tool: "lookup", outcome: { response: { found: true } } }],
    llm: (request: MockModelRequest) => {
      seen.push(request);
      if (request.tools.some((tool) => tool.name === "lookup") && request.toolResults.length === 0)
        return { toolCalls: [{ name: "lookup", input: {} }] };
      return `answer to ${request.lastUserMessage ?? ""}`;
    },
    // An agent in another process, as the CLI adapters mark it: its tools are known on the wire only.
    agent: markWireAgent(async () => {
      const context = currentTurnContext();
      if (context === undefined) throw new Error("no turn");
      // The proxy one CLI run gets, reached by a real client over a socket.
      const server = await serveOnLoopback(createAgentProcessAnswer({ context, wireTools: new WireToolCalls() }).answer);
      const client = new OpenAI({ apiKey: "sk-test", baseURL: `${server.url}/v1`, maxRetries: 0 });
      try {
        const main: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "Look it up." }];
        const first = await client.chat.completions.create({ model: "m", messages: main, tools: [lookup] });
        main.push(first.choices[0]!.message, { role: "user", content: "And now?" });
        const side = await client.chat.completions.create({
          model: "m",
          messages: [{ role: "user", content: "Search the docs." }],
          tools: [search],
        });
        const again = await client.chat.completions.create({ model: "m", messages: main, tools: [lookup] });
        return [first.choices[0]?.message.content, side.choices[0]?.message.content, again.choices[0]?.message.content].join(" | ");
      } finally {
        await server.close();
      }
    }),
  });
  const turn = await session.send("go");
  expect(turn.text).toBe("answer to Look it up. | answer to Search the docs. | answer to And now?");
  // The side conversation saw only its own message; the main one, its withheld round, at its place.
  const sideView = seen.find((request) => request.lastUserMessage === "Search the docs.");
  expect(sideView?.messages.map((message) => message.role)).toEqual(["user"]);
  const mainView = seen.at(-1);
  expect(mainView?.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant", "user"]);
});
