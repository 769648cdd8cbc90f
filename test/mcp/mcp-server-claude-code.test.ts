import { describe, expect, test } from "vitest";
import { createSession, type MockModelRequest, type MockModelResponse, mcpServer } from "tooltrace";
import { claudeCode } from "tooltrace/cli";

const WEATHER = "mcp__tooltrace__get_weather";

/** The model: calls the served MCP tool for two cities, then reports what each call returned. */
function weatherModel() {
  const offered: string[][] = [];
  const respond = (request: MockModelRequest): MockModelResponse | string => {
    if (!request.tools.some((tool) => tool.name === WEATHER)) return "ok";
    offered.push(request.tools.map((tool) => tool.name));
    if (request.toolResults.length === 0)
      return {
        toolCalls: [
          { name: WEATHER, input: { city: "Paris" } },
          { name: WEATHER, input: { city: "Berlin" } },
        ],
      };
    return request.toolResults.map((result) => `${result.isError ? "failed" : "ok"}: ${JSON.stringify(result.output)}`).join(" | ");
  };
  return { respond, offered };
}

describe("a session's stub rules served to Claude Code as an MCP server", { timeout: 90_000 }, () => {
  test("Claude Code lists the served tool and calls it; the session's rules answer, closed-world, and the calls are in the trace", async () => {
    const { respond, offered } = weatherModel();
    const mcp = await mcpServer({
      tools: [
        {
          name: "get_weather",
          description: "The weather in a city",
          inputSchema: { type: "object", properties: { city: { type: "string" } } },
        },
      ],
    });
    try {
      const session = createSession({
        agent: claudeCode({
          args: ["--strict-mcp-config", "--mcp-config", JSON.stringify(mcp.mcpConfig())],
          allowedTools: ["mcp__tooltrace"],
        }),
        llm: respond,
        strict: true,
        stubs: [{ id: "paris", tool: "get_weather", match: { city: { const: "Paris" } }, outcome: { response: { tempC: 21 } } }],
        mcp,
      });
      const turn = await session.send("Weather in Paris and Berlin?");
      expect(offered[0]).toContain(WEATHER);
      expect(turn.text).toMatch(
        /^ok: \{"tempC":21\} \| failed: .*no stub rule matched get_weather\(.*Berlin.*\): The closest rule, .*paris/,
      );
      const served = turn.toolCalls.filter((call) => call.tool === "get_weather");
      expect(served.map((call) => [call.input, call.status, call.answeredBy?.kind])).toEqual([
        [{ city: "Paris" }, "completed", "stub"],
        [{ city: "Berlin" }, "failed", "strict"],
      ]);
      expect(session.takeViolations()).toEqual([]);
    } finally {
      await mcp.close();
    }
  });
});
