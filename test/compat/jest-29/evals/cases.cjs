// The evals both specs run, given tooltrace's createSession as the spec loaded it (CommonJS or ESM).
module.exports = function agentCases(createSession) {
  const tools = { list_tasks: (_input) => ({ tasks: ["real"] }) };
  const original = tools.list_tasks;

  test("stubs answer and the matchers are registered", async () => {
    const session = createSession({
      tools,
      agent: () => JSON.stringify(tools.list_tasks({})),
      stubs: [{ id: "t", tool: "list_tasks", outcome: { response: { tasks: ["stub"] } } }],
    });
    const turn = await session.send("hi");
    expect(turn).toHaveCalledTool("list_tasks", { output: { tasks: ["stub"] }, count: 1 });
    expect(turn.text).toBe('{"tasks":["stub"]}');
  });

  test("the tools are restored after the previous test", () => {
    expect(tools.list_tasks).toBe(original);
  });

  // Refused by the hermetic default: the test fails (also when the agent caught the error), naming Jest's form.
  test("a host beyond loopback is refused", async () => {
    await fetch("https://api.example.test/v1/items").catch(() => undefined);
  });

  test("an unused rule fails the test after it ends", async () => {
    const session = createSession({
      tools,
      agent: () => "no tools",
      stubs: [{ id: "never", tool: "list_tasks", outcome: { response: {} } }],
      unusedRules: "error",
    });
    await session.send("hi");
  });

  // The agent's own fetch to the provider, answered by the session's scripted model: no MSW, no flag.
  test("a session's llm answers the agent's request on the wire", async () => {
    const agent = async (message) => {
      const response = await fetch("https://api.openai.com/v1/chat/completions", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer sk-test" },
        body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: message }] }),
      });
      return (await response.json()).choices[0].message.content;
    };
    const turn = await createSession({ agent, llm: "Scripted hello" }).send("hi");
    expect(turn.text).toBe("Scripted hello");
    expect(turn.modelCalls).toHaveLength(1);
  });
};
