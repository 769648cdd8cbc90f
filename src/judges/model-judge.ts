import type { Judge, JudgeSubject } from "../../matchers/lib/judge.js";
import { TooltraceError } from "../exits/errors.js";
import { compactJson, excerpt } from "../exits/excerpt.js";
import { judgeLlmOf } from "../session/judge-llm.js";

/** Options of {@link modelJudge}. */
export interface ModelJudgeOptions {
  /** What a good answer does, in words the model judges by. */
  readonly criteria: string;
  /**
   * Asks the judging model: any client (the OpenAI SDK, `generateText`). Default: the session's own model
   * (`llm`), as `ctx.callLLM` asks it. A client on the wire in a session with `upstream` asks the real model
   * (and a cassette records it).
   */
  readonly ask?: (prompt: string) => Promise<string>;
  /** The judge's name in the trace. Default `model`. */
  readonly name?: string;
}

/** The prompt a model judge sends: the criteria, the question, the tool calls and the answer, and the reply's form. */
export function judgePrompt(criteria: string, subject: JudgeSubject): string {
  const calls = subject.turn.toolCalls.map(
    (call) => `- ${call.qualifiedName}(${compactJson(call.input, 200)}) → ${compactJson(call.output ?? call.error?.message ?? null, 200)}`,
  );
  return [
    "You judge an AI agent's answer against criteria.",
    `Criteria: ${criteria}`,
    `Question: ${subject.question}`,
    ...(calls.length > 0 ? ["Tool calls:", ...calls] : []),
    `Answer: ${subject.answer}`,
    'Reply with one line of JSON: {"score": <a number from 0 to 1>, "reason": "<one sentence>"}',
  ].join("\n");
}

/** The score and reason in a judging model's reply: its JSON, or a `score: 0.8` line. */
export function readVerdict(reply: string): { score: number; reason: string } | undefined {
  const json = /\{[\s\S]*\}/.exec(reply)?.[0];
  if (json !== undefined) {
    try {
      const parsed = JSON.parse(json) as { score?: unknown; reason?: unknown };
      const score = typeof parsed.score === "string" && parsed.score.trim() !== "" ? Number(parsed.score) : parsed.score;
      if (typeof score === "number") {
        const reason = typeof parsed.reason === "string" ? parsed.reason : "";
        if (score >= 0 && score <= 1) return { score, reason };
        return { score: 0, reason: `the judging model's score ${score} is not between 0 and 1${reason ? `: ${reason}` : ""}` };
      }
    } catch {
      // Not JSON after all: try the plain form.
    }
  }
  const plain = /score\W{0,3}(\d+(?:\.\d+)?)(?![\d.])/i.exec(reply);
  if (plain === null) return undefined;
  const score = Number(plain[1]);
  const rest = reply.replace(plain[0], "").trim();
  return score <= 1 ? { score, reason: rest } : { score: 0, reason: `the judging model's score ${score} is not between 0 and 1` };
}

/**
 * Judges the answer with a model: the session's mock model (its script sees the prompt as the user message),
 * or a real one through `ask`. The prompt is kept in the result and shown when the assertion fails.
 *
 * @example
 * ```ts
 * await expect(turn).toSatisfyJudge(modelJudge({ criteria: "It names the city and a temperature." }), { threshold: 0.7 });
 * ```
 */
export function modelJudge(options: ModelJudgeOptions): Judge {
  const name = options.name ?? "model";
  const judge: Judge = async (subject) => {
    const session = judgeLlmOf(subject.received) ?? judgeLlmOf(subject.turn);
    const own = options.ask;
    // A judge's own client runs in the judged turn's context: its request goes through the session's chain.
    const ask =
      own !== undefined
        ? (prompt: string) => (session === undefined ? own(prompt) : session.within(name, () => own(prompt)))
        : session === undefined
          ? undefined
          : (prompt: string) => session.ask(prompt, name);
    if (ask === undefined)
      throw new TooltraceError(
        "modelJudge needs a model: give it `ask` (a function sending the prompt to a model), or judge a turn of a session with `llm` or `upstream`.",
      );
    const prompt = judgePrompt(options.criteria, subject);
    const reply = await ask(prompt);
    const verdict = readVerdict(reply);
    if (verdict === undefined) return { score: 0, reason: `the judging model's reply has no score: ${excerpt(reply, 200)}`, prompt };
    return { ...verdict, prompt };
  };
  return Object.assign(judge, { judgeName: name });
}
