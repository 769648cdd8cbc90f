import { afterEach, describe, expect, test } from "vitest";
import { createSession } from "tooltrace";

// Strict mode had no room for one real tool, and under TOOLTRACE_STRICT=1 (which overrides `strict: false`) its
// refusal still advised "create the session without `strict: true`".
const sent: string[] = [];
const tools = {
  send_email: async (input: { to: string }) => (sent.push(input.to), "sent"),
  lookup: async (_input: { id: string }) => "real lookup",
};
const agent = async () =>
  `${await tools.send_email({ to: "ada@example.test" })}, ${await tools.lookup({ id: "A1" }).catch(() => "refused")}`;

afterEach(() => {
  delete process.env.TOOLTRACE_STRICT;
  delete process.env.TOOLTRACE_STRICT_ALLOW_TOOLS;
});

describe("strict mode with named exceptions", () => {
  test("allowTools lets a named tool run for real; the rest of strict mode holds", async () => {
    const from = sent.length;
    const session = createSession({ agent, tools, strict: true, allowTools: ["send_email"] });
    const turn = await session.send("go");
    expect(turn.text).toBe("sent, refused");
    expect(sent.slice(from)).toEqual(["ada@example.test"]);
    expect(session.takeViolations()).toEqual([expect.stringContaining("no stub rule matched lookup")]);
  });

  test("under TOOLTRACE_STRICT=1 the refusal names that switch, and TOOLTRACE_STRICT_ALLOW_TOOLS lets a tool run", async () => {
    process.env.TOOLTRACE_STRICT = "1";
    const refused = createSession({ agent, tools, strict: false });
    await refused.send("go");
    const [first] = refused.takeViolations();
    expect(first).toContain("TOOLTRACE_STRICT");
    expect(first).toContain('`createSession({ allowTools: ["send_email"] })` or TOOLTRACE_STRICT_ALLOW_TOOLS=send_email');
    expect(first).not.toContain("without `strict: true`");
    process.env.TOOLTRACE_STRICT_ALLOW_TOOLS = "send_email";
    const from = sent.length;
    const allowed = createSession({ agent, tools });
    expect((await allowed.send("go")).text).toBe("sent, refused");
    expect(sent.slice(from)).toEqual(["ada@example.test"]);
    expect(allowed.takeViolations()).toEqual([expect.stringContaining("no stub rule matched lookup")]);
  });

  test("allowTools that is not a list of names is refused at setup, with its pointer", () => {
    expect(() => createSession({ agent, tools, strict: true, allowTools: "send_email" as never })).toThrow(/allowTools/);
  });
});
