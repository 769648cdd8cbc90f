import { test } from "vitest";
import { tool as lcTool } from "@langchain/core/tools";
import { tool as agentsTool } from "@openai/agents";
import { z } from "zod";
test("shapes", async () => {
  const search = lcTool(async ({ q }: { q: string }) => `real ${q}`, { name: "search", description: "Search.", schema: z.object({ q: z.string() }) });
  console.log("LC own keys", Object.keys(search).slice(0, 30), "proto _call own?", Object.hasOwn(search, "_call"), typeof (search as any).func, Object.getPrototypeOf(search).constructor.name);
  console.log("invoke with toolcall:", await search.invoke({ name: "search", args: { q: "x" }, id: "tc1", type: "tool_call" }));
  const ag = agentsTool({ name: "search", description: "Search.", parameters: z.object({ q: z.string() }), execute: async ({ q }) => `real ${q}` });
  console.log("Agents keys", Object.keys(ag), typeof ag.invoke);
  console.log("Agents invoke:", await ag.invoke({} as any, JSON.stringify({ q: "y" }), { toolCall: { callId: "c1" } } as any));
  const bad = agentsTool({ name: "bad", description: "b", parameters: z.object({}), execute: async () => { throw new Error("boom"); } });
  console.log("Agents failing invoke:", await bad.invoke({} as any, "{}").catch((e) => "THREW " + e));
  console.log(bad.invoke.toString().slice(0, 600));
});
