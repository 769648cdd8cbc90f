import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { llmWire } from "tooltrace/msw";
import type { MockModelResponse } from "tooltrace";
import { unhandled } from "../fixtures/versions.js";

/** One scripted reply: text with words to split, two tool calls with nested input, explicit usage. */
const scripted: MockModelResponse = {
  text: "Let me check both lists — with “unicode” and JSON {braces}.",
  toolCalls: [
    { name: "list_tasks", input: { filter: { status: "open", tags: ["home", "urgent"] }, limit: 25 }, id: "call_fixed_1" },
    { name: "complete_task", input: { task_id: 'milk "2%"' } },
  ],
  usage: { inputTokens: 123, outputTokens: 45 },
};
const offered = [
  { name: "list_tasks", description: "List.", parameters: { type: "object", properties: {} } },
  { name: "complete_task", description: "Complete.", parameters: { type: "object", properties: { task_id: { type: "string" } } } },
];

const wire = llmWire({ respond: () => scripted });
const server = setupServer(...wire.handlers);
beforeAll(() => server.listen(unhandled("error")));
afterAll(() => server.close());

describe("each streaming format, reassembled by the provider SDK's own parser", () => {
  test("OpenAI Chat Completions: ChatCompletionStream.finalChatCompletion()", async () => {
    const client = new OpenAI({ apiKey: "sk-test", maxRetries: 0 });
    const completion = await client.chat.completions
      .stream({
        model: "gpt-4o",
        messages: [{ role: "user", content: "go" }],
        tools: offered.map((fn) => ({ type: "function", function: fn })),
        stream_options: { include_usage: true },
      })
      .finalChatCompletion();
    const message = completion.choices[0]!.message;
    expect(message.content).toBe(scripted.text);
    expect(
      message.tool_calls?.map((call) =>
        call.type === "function" ? [call.id, call.function.name, JSON.parse(call.function.arguments)] : [],
      ),
    ).toEqual([
      ["call_fixed_1", "list_tasks", scripted.toolCalls![0]!.input],
      ["call_2", "complete_task", scripted.toolCalls![1]!.input],
    ]);
    expect(completion.choices[0]!.finish_reason).toBe("tool_calls");
    expect(completion.usage).toMatchObject({ prompt_tokens: 123, completion_tokens: 45, total_tokens: 168 });
  });

  test("OpenAI Chat Completions raw SSE ends with [DONE] and sends usage only when asked", async () => {
    const client = new OpenAI({ apiKey: "sk-test", maxRetries: 0 });
    const chunks = [];
    for await (const chunk of await client.chat.completions.create({
      model: "gpt-4o",
      messages: [{ role: "user", content: "go" }],
      tools: offered.map((fn) => ({ type: "function" as const, function: fn })),
      stream: true,
    }))
      chunks.push(chunk);
    expect(chunks.every((chunk) => chunk.usage === undefined || chunk.usage === null)).toBe(true);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("tool_calls");
    const response = await fetch("https://api.openai.com/v1/chat/completions", {
      method: "POST",
      body: JSON.stringify({
        model: "m",
        messages: [{ role: "user", content: "x" }],
        tools: offered.map((fn) => ({ type: "function", function: fn })),
        stream: true,
      }),
    });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    expect((await response.text()).trimEnd().endsWith("data: [DONE]")).toBe(true);
  });

  test("OpenAI Responses: ResponseStream.finalResponse()", async () => {
    const client = new OpenAI({ apiKey: "sk-test", maxRetries: 0 });
    const stream = client.responses.stream({
      model: "gpt-4.1",
      input: "go",
      tools: offered.map((fn) => ({ type: "function" as const, strict: false, ...fn })),
    });
    const types = new Set<string>();
    stream.on("event", (event) => types.add(event.type));
    const response = await stream.finalResponse();
    expect(response.output_text).toBe(scripted.text);
    const calls = response.output.flatMap((item) =>
      item.type === "function_call" ? [[item.call_id, item.name, JSON.parse(item.arguments)]] : [],
    );
    expect(calls).toEqual([
      ["call_fixed_1", "list_tasks", scripted.toolCalls![0]!.input],
      ["call_2", "complete_task", scripted.toolCalls![1]!.input],
    ]);
    expect(response.usage).toMatchObject({ input_tokens: 123, output_tokens: 45, total_tokens: 168 });
    expect([...types]).toEqual(
      expect.arrayContaining([
        "response.created",
        "response.output_text.delta",
        "response.function_call_arguments.delta",
        "response.output_item.done",
        "response.completed",
      ]),
    );
  });

  test("Anthropic Messages: MessageStream.finalMessage()", async () => {
    const client = new Anthropic({ apiKey: "sk-ant-test", maxRetries: 0 });
    const stream = client.messages.stream({
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      messages: [{ role: "user", content: "go" }],
      tools: offered.map((fn) => ({
        name: fn.name,
        description: fn.description,
        input_schema: fn.parameters as Anthropic.Tool.InputSchema,
      })),
    });
    const events: string[] = [];
    stream.on("streamEvent", (event) => events.push(event.type));
    const message = await stream.finalMessage();
    expect(message.content).toEqual([
      { type: "text", text: scripted.text },
      { type: "tool_use", id: "call_fixed_1", name: "list_tasks", input: scripted.toolCalls![0]!.input },
      { type: "tool_use", id: "toolu_2", name: "complete_task", input: scripted.toolCalls![1]!.input },
    ]);
    expect(message.stop_reason).toBe("tool_use");
    expect(message.usage).toMatchObject({ input_tokens: 123, output_tokens: 45 });
    expect(events[0]).toBe("message_start");
    expect(events.at(-1)).toBe("message_stop");
    expect(events.filter((type) => type === "content_block_start")).toHaveLength(3);
  });
});
