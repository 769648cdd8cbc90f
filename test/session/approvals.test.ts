import { generateText, stepCountIs, tool, type ModelMessage } from "ai";
import { expect, test } from "vitest";
import { z } from "zod";
import { createSession, mockModel } from "tooltrace";
import { stepMessages } from "../fixtures/versions.js";

test("calls awaiting or denied approval do not consume entries; normal approvals apply before an outcome", async () => {
  const tools = {
    delete_task: tool({ inputSchema: z.object({ id: z.string() }), needsApproval: true, execute: async () => ({ deleted: "for real" }) }),
  };
  const model = mockModel(({ messages }) => {
    const last = messages.at(-1);
    if (last?.role === "user") return { toolCalls: [{ name: "delete_task", input: { id: "milk" } }] };
    const result = last?.toolResults?.[0];
    return result?.isError ? "Okay, I did not delete it." : `Deleted: ${JSON.stringify(result?.output)}`;
  });
  const decisions = [false, true];
  // An agent that asks its user (here: a scripted list of decisions) before any tool that needs approval.
  const agent = async (message: string, { history }: { history: readonly ModelMessage[] }) => {
    const messages: ModelMessage[] = [...history, { role: "user", content: message }];
    for (;;) {
      const result = await generateText({ model, tools, messages, stopWhen: stepCountIs(4) });
      messages.push(...stepMessages(result));
      const requests = result.content.filter((part) => part.type === "tool-approval-request");
      if (requests.length === 0) return { text: result.text, messages: messages.slice(history.length) };
      const approved = decisions.shift() ?? false;
      messages.push({
        role: "tool",
        content: requests.map((request) => ({ type: "tool-approval-response" as const, approvalId: request.approvalId, approved })),
      });
    }
  };
  const session = createSession({
    agent,
    tools,
    stubs: [
      {
        id: "delete",
        tool: "delete_task",
        outcomes: [{ response: { deleted: "first entry" } }, { response: { deleted: "second entry" } }],
      },
    ],
  });

  const denied = await session.send("Delete the milk task");
  expect(denied).toHaveMessageIncluding("I did not delete it");
  // The denied call never reached the executor, yet it is in the trace: refused before it ran.
  expect(denied).not.toHaveCalledTool("delete_task");
  expect(denied).toHaveCalledTool("delete_task", { status: "rejected", input: { id: "milk" }, count: 1 });
  expect(denied.toolCalls[0]?.answeredBy).toEqual({ kind: "outside" });
  expect(session.ruleUsage().get("delete")).toBe(0);

  const approved = await session.send("Delete the milk task, I approve");
  expect(approved).toHaveCalledTool("delete_task", { output: { deleted: "first entry" }, count: 1 });
  expect(approved.toolCalls[0]?.answeredBy).toEqual({ kind: "stub", ruleId: "delete", outcomeIndex: 0 });
});
