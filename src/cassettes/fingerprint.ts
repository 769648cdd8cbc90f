import { lazyRequire } from "../base/lazy-require.js";
import { changedLines } from "../base/changed-lines.js";
import type { MockModelRequest } from "../model/types.js";

/**
 * What produced a recorded exchange with the model, as the codec decoded the request: the model, the system
 * prompt and each offered tool's description and schema, each as a short digest (a prompt may be long and
 * hold what should not be written), so replay can tell when the code no longer sends what was recorded.
 */
export interface ModelFingerprint {
  readonly model: string;
  /** A digest of the system prompt (every system message), or `""` without one. */
  readonly system: string;
  /** Per offered tool, a digest of its description and input schema. */
  readonly tools: Readonly<Record<string, string>>;
}

// Loaded with the first cassette: a test file that records or replays none never loads node:crypto.
const crypto = lazyRequire<typeof import("node:crypto")>("node:crypto");
const digest = (text: string) => crypto().createHash("sha256").update(text).digest("hex").slice(0, 12);

/** JSON with object keys sorted, so the same schema always gives the same digest. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The texts a request's fingerprint digests: its system prompt and each offered tool's definition, by digest. */
export interface FingerprintedRequest {
  readonly fingerprint: ModelFingerprint;
  /** Each digest's text (a tool's definition as JSON with sorted keys, one field a line), for a readable diff. */
  readonly sources: Readonly<Record<string, string>>;
}

/** The fingerprint of a model request, and the texts its digests stand for. */
export function modelFingerprint(model: string, request: MockModelRequest): FingerprintedRequest {
  const sources: Record<string, string> = {};
  const noted = (text: string) => {
    const key = digest(text);
    sources[key] = text;
    return key;
  };
  const system = request.messages
    .filter((message) => message.role === "system")
    .map((message) => message.text)
    .join("\n");
  const tools: Record<string, string> = {};
  for (const tool of [...request.tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const definition = stableJson({ description: tool.description, inputSchema: tool.inputSchema });
    tools[tool.name] = digest(definition);
    sources[tools[tool.name] as string] = JSON.stringify(JSON.parse(definition), null, 2);
  }
  return { fingerprint: { model, system: system === "" ? "" : noted(system), tools }, sources };
}

/**
 * What changed between a recorded fingerprint and today's, one entry per part (empty when nothing did): the
 * two digests, and under them the lines that changed, when the cassette kept the recorded text (`recorded`)
 * and today's is known (`current`). Both texts come redacted, as the cassette keeps them.
 */
export function fingerprintChanges(
  recorded: ModelFingerprint,
  current: ModelFingerprint,
  texts: { readonly recorded: (digest: string) => string | undefined; readonly current: (digest: string) => string | undefined } = {
    recorded: () => undefined,
    current: () => undefined,
  },
): string[] {
  const lines: string[] = [];
  const diff = (was: string, now: string) => {
    const before = texts.recorded(was);
    const after = texts.current(now);
    return before === undefined || after === undefined
      ? ""
      : `\n${changedLines(before, after)
          .map((line) => `  ${line}`)
          .join("\n")}`;
  };
  if (recorded.model !== current.model) lines.push(`- model: ${JSON.stringify(recorded.model)}\n+ model: ${JSON.stringify(current.model)}`);
  if (recorded.system !== current.system)
    lines.push(
      `- system prompt: ${recorded.system || "(none)"}\n+ system prompt: ${current.system || "(none)"} (changed)${diff(recorded.system, current.system)}`,
    );
  for (const [name, was] of Object.entries(recorded.tools)) {
    const now = current.tools[name];
    if (now === undefined) lines.push(`- tool ${name} (no longer offered)`);
    else if (now !== was) lines.push(`- tool ${name}: ${was}\n+ tool ${name}: ${now} (its description or schema changed)${diff(was, now)}`);
  }
  for (const name of Object.keys(current.tools)) if (!(name in recorded.tools)) lines.push(`+ tool ${name} (newly offered)`);
  return lines;
}
