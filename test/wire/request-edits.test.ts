import { describe, expect, test } from "vitest";
import { anthropicMessages } from "../../src/wire/anthropic-messages.js";
import { emptyMemory } from "../../src/wire/memory.js";
import { gemini } from "../../src/wire/gemini.js";
import { openaiChat } from "../../src/wire/openai-chat.js";
import { openaiResponses } from "../../src/wire/openai-responses.js";
import { applyEdits, type WireEdits } from "../../src/wire/request-edits.js";

/** One edit of each kind: call_1's input goes back to the model's, call_1's result is the chain's, a hidden round after item 1, call_h hidden beside call_1. */
const edits: WireEdits = {
  inputs: new Map([["call_1", { q: "model's" }]]),
  results: new Map([["call_1", { id: "call_1", name: "search", output: "[scrubbed]", isError: false }]]),
  rounds: [
    {
      at: 1,
      text: "",
      calls: [{ id: "call_r", name: "config", input: {} }],
      results: [{ id: "call_r", name: "config", output: "MODE=stubbed", isError: false }],
    },
  ],
  extraCalls: new Map([["call_1", [{ id: "call_h", name: "search", input: { q: "hidden" } }]]]),
  extraResults: new Map([["call_1", [{ id: "call_h", name: "search", output: "stub", isError: false }]]]),
};

describe("a client's request with the chain's changes put back, everything else as it was sent", () => {
  test("Anthropic Messages: system, cache_control, thinking blocks and unknown fields kept", () => {
    const body = {
      model: "claude-sonnet-4-6",
      system: [{ type: "text", text: "You are careful.", cache_control: { type: "ephemeral" } }],
      thinking: { type: "adaptive" },
      messages: [
        { role: "user", content: [{ type: "text", text: "go", cache_control: { type: "ephemeral" } }] },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "Let me search.", signature: "sig-abc" },
            { type: "tool_use", id: "call_1", name: "search", input: { q: "agent's" } },
          ],
        },
        {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: "call_1",
              content: [{ type: "text", text: "INC-1 secret" }],
              cache_control: { type: "ephemeral" },
            },
          ],
        },
      ],
      future_field: { kept: true },
    };
    const out = applyEdits(anthropicMessages.editor, body, edits) as typeof body;
    expect({ ...out, messages: undefined }).toEqual({ ...body, messages: undefined });
    expect(out.messages[0]).toBe(body.messages[0]);
    expect(out.messages[1]).toEqual({ role: "assistant", content: [{ type: "tool_use", id: "call_r", name: "config", input: {} }] });
    expect(out.messages[2]).toEqual({ role: "user", content: [{ type: "tool_result", tool_use_id: "call_r", content: "MODE=stubbed" }] });
    expect(out.messages[3]?.content).toEqual([
      { type: "thinking", thinking: "Let me search.", signature: "sig-abc" },
      { type: "tool_use", id: "call_1", name: "search", input: { q: "model's" } },
      { type: "tool_use", id: "call_h", name: "search", input: { q: "hidden" } },
    ]);
    expect(out.messages[4]?.content).toEqual([
      { type: "tool_result", tool_use_id: "call_1", content: "[scrubbed]", cache_control: { type: "ephemeral" } },
      { type: "tool_result", tool_use_id: "call_h", content: "stub" },
    ]);
    // What the codec decodes from it is the conversation the model was shown.
    const view = anthropicMessages.decode(out, emptyMemory()).view;
    expect(view.toolResults.map((result) => [result.id, result.output])).toEqual([
      ["call_r", "MODE=stubbed"],
      ["call_1", "[scrubbed]"],
      ["call_h", "stub"],
    ]);
  });

  test("OpenAI Chat Completions: tool_calls by id, tool messages by tool_call_id", () => {
    const body = {
      model: "gpt-5",
      parallel_tool_calls: true,
      messages: [
        { role: "system", content: "Be careful." },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_1", type: "function", function: { name: "search", arguments: '{"q":"agent\'s"}' } }],
        },
        { role: "tool", tool_call_id: "call_1", content: "INC-1 secret", name: "search" },
      ],
    };
    const out = applyEdits(openaiChat.editor, body, edits) as { messages: unknown[] };
    expect(out.messages).toEqual([
      body.messages[0],
      { role: "assistant", content: null, tool_calls: [{ id: "call_r", type: "function", function: { name: "config", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "call_r", content: "MODE=stubbed" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "search", arguments: '{"q":"model\'s"}' } },
          { id: "call_h", type: "function", function: { name: "search", arguments: '{"q":"hidden"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "[scrubbed]", name: "search" },
      { role: "tool", tool_call_id: "call_h", content: "stub" },
    ]);
    expect((out as { parallel_tool_calls?: boolean }).parallel_tool_calls).toBe(true);
  });

  test("OpenAI Responses: reasoning items kept, function_call and function_call_output by call_id; a string input becomes a message", () => {
    const body = {
      model: "gpt-5",
      store: false,
      include: ["reasoning.encrypted_content"],
      input: [
        { type: "message", role: "user", content: [{ type: "input_text", text: "go" }] },
        { type: "reasoning", id: "rs_1", encrypted_content: "gAAAA...", summary: [] },
        { type: "function_call", call_id: "call_1", name: "search", arguments: '{"q":"agent\'s"}' },
        { type: "function_call_output", call_id: "call_1", output: "INC-1 secret" },
      ],
    };
    const out = applyEdits(openaiResponses.editor, body, edits) as { input: unknown[] };
    expect(out.input).toEqual([
      body.input[0],
      { type: "function_call", call_id: "call_r", name: "config", arguments: "{}" },
      { type: "function_call_output", call_id: "call_r", output: "MODE=stubbed" },
      body.input[1],
      { type: "function_call", call_id: "call_1", name: "search", arguments: '{"q":"model\'s"}' },
      { type: "function_call", call_id: "call_h", name: "search", arguments: '{"q":"hidden"}' },
      { type: "function_call_output", call_id: "call_1", output: "[scrubbed]" },
      { type: "function_call_output", call_id: "call_h", output: "stub" },
    ]);
    expect(applyEdits(openaiResponses.editor, { model: "gpt-5", input: "hi" }, { ...edits, rounds: [] }).input).toEqual([
      { type: "message", role: "user", content: "hi" },
    ]);
  });
});

describe("Gemini's contents with the chain's changes put back", () => {
  test("functionCall parts by id, functionResponse parts by id; thought signatures, text and unknown fields kept", () => {
    const body = {
      systemInstruction: { parts: [{ text: "You are careful." }] },
      generationConfig: { temperature: 0 },
      contents: [
        { role: "user", parts: [{ text: "go" }] },
        {
          role: "model",
          parts: [
            { text: "Let me search.", thought: true, thoughtSignature: "sig-abc" },
            { functionCall: { id: "call_1", name: "search", args: { q: "agent's" } }, thoughtSignature: "sig-fc" },
          ],
        },
        {
          role: "user",
          parts: [{ functionResponse: { id: "call_1", name: "search", response: { name: "search", content: "INC-1 secret" } } }],
        },
      ],
      future_field: { kept: true },
    };
    const out = applyEdits(gemini.editor, body, edits) as typeof body;
    expect({ ...out, contents: undefined }).toEqual({ ...body, contents: undefined });
    expect(out.contents[0]).toBe(body.contents[0]);
    expect(out.contents[1]).toEqual({ role: "model", parts: [{ functionCall: { id: "call_r", name: "config", args: {} } }] });
    expect(out.contents[2]).toEqual({
      role: "user",
      parts: [{ functionResponse: { id: "call_r", name: "config", response: { name: "config", content: "MODE=stubbed" } } }],
    });
    expect(out.contents[3]?.parts).toEqual([
      { text: "Let me search.", thought: true, thoughtSignature: "sig-abc" },
      { functionCall: { id: "call_1", name: "search", args: { q: "model's" } }, thoughtSignature: "sig-fc" },
      { functionCall: { id: "call_h", name: "search", args: { q: "hidden" } } },
    ]);
    expect(out.contents[4]?.parts).toEqual([
      { functionResponse: { id: "call_1", name: "search", response: { name: "search", content: "[scrubbed]" } } },
      { functionResponse: { id: "call_h", name: "search", response: { name: "search", content: "stub" } } },
    ]);
    const view = gemini.decode(
      out,
      emptyMemory(),
      new URL("https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"),
    ).view;
    expect(view.toolResults.map((result) => [result.id, result.output])).toEqual([
      ["call_r", "MODE=stubbed"],
      ["call_1", "[scrubbed]"],
      ["call_h", "stub"],
    ]);
    expect(view.messages[4]).toEqual({
      role: "assistant",
      text: "",
      toolCalls: [
        { id: "call_1", name: "search", input: { q: "model's" } },
        { id: "call_h", name: "search", input: { q: "hidden" } },
      ],
    });
  });
});
