import { TooltraceError } from "../exits/errors.js";
import { excerpt } from "../exits/excerpt.js";
import { lazyRequire } from "../base/lazy-require.js";

const ajvModule = lazyRequire<typeof import("ajv/dist/2020.js")>("ajv/dist/2020.js");

const count = { type: "integer", minimum: 0 };
const number = { type: "number" };
const text = { type: "string" };
const runSide = {
  type: "object",
  required: ["state", "tokens", "durationMs"],
  properties: {
    state: { enum: ["passed", "failed", "skipped", "pending"] },
    tokens: number,
    durationMs: number,
    scores: { type: "object", additionalProperties: number },
  },
};
const sinceLast = {
  type: "object",
  required: ["before", "after", "trajectory"],
  properties: {
    before: runSide,
    after: runSide,
    trajectory: { type: "array", items: { type: "object", required: ["session", "diff"], properties: { session: text, diff: text } } },
  },
};
const call = { type: "object", properties: { qualifiedName: text, tool: text, status: text, startedAt: number, durationMs: number } };

/**
 * What a report read from a file must hold where tooltrace reads it (`show`, `show --compare`, the job
 * summary's baseline): a file is input from anywhere, and a value of another type must not become markup,
 * `[object Object]` or a crash. The rest of each test and turn is kept as it is.
 */
const REPORT_SCHEMA = {
  type: "object",
  required: ["tests"],
  properties: {
    history: {
      type: "array",
      items: {
        type: "object",
        required: ["at", "tests", "failed", "durationMs"],
        properties: { at: text, tests: count, failed: count, durationMs: number },
      },
    },
    tests: {
      type: "array",
      items: {
        type: "object",
        required: ["file", "fullName", "state"],
        properties: {
          id: text,
          file: text,
          fullName: text,
          state: { enum: ["passed", "failed", "skipped", "pending"] },
          durationMs: number,
          errors: { type: "array", items: text },
          fileErrors: { type: "boolean" },
          fromRun: text,
          sinceLast,
          meta: {
            type: "object",
            properties: {
              sessions: {
                type: "array",
                items: {
                  type: "object",
                  required: ["name", "turns"],
                  properties: {
                    name: text,
                    strict: { type: "boolean" },
                    violations: { type: "array", items: text },
                    unusedRuleIds: { type: "array", items: text },
                    turns: {
                      type: "array",
                      items: {
                        type: "object",
                        properties: {
                          index: count,
                          userMessage: text,
                          text: text,
                          status: text,
                          startedAt: number,
                          durationMs: number,
                          usage: { type: "object", properties: { inputTokens: number, outputTokens: number, totalTokens: number } },
                          toolCalls: { type: "array", items: call },
                          modelCalls: { type: "array", items: call },
                          httpCalls: { type: "array", items: call },
                        },
                      },
                    },
                  },
                },
              },
              trials: {
                type: "array",
                items: { type: "object", required: ["passed", "count"], properties: { passed: count, count, passRate: number } },
              },
            },
          },
        },
      },
    },
  },
} as const;

let validate: ((value: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] | null };

/** Refuses a report that does not hold what tooltrace reads, naming the file, the JSON pointer and what is wrong. */
export function checkReport(value: unknown, file: string): void {
  validate ??= new (ajvModule().Ajv2020)({ strict: false, allErrors: false }).compile(REPORT_SCHEMA);
  if (validate(value)) return;
  const error = validate.errors?.[0];
  throw new TooltraceError(
    `${file} is not a report tooltrace can read: at ${error?.instancePath || "/"}, ${excerpt(error?.message ?? "the value is not valid", 200)}.`,
    "give a report the tooltrace reporter (or the JSON reporter) wrote, unedited.",
  );
}
