// The same evals as agent.jest-spec.mjs, in Jest's CommonJS mode: `require("tooltrace")`.
const { createSession } = require("tooltrace");

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
