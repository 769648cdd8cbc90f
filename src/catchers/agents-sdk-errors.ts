import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** The SDK's hook, called with the parsed input right before a function tool's `execute` (found by its name). */
const PARSED_INPUT_CALLBACK = "openai.agents.functionToolParsedInputCallback";

let supported: boolean | undefined;

/**
 * Whether this Agents SDK calls the parsed-input hook before `execute`, inside the part of `invoke` whose
 * failures go to the tool's `errorFunction`: read once from the installed SDK's own source.
 */
function hookSupported(): boolean {
  if (supported !== undefined) return supported;
  try {
    const agents = createRequire(join(process.cwd(), "noop.js")).resolve("@openai/agents");
    const dist = dirname(createRequire(agents).resolve("@openai/agents-core"));
    supported = ["tool.mjs", "tool.js"].some((file) => {
      try {
        return readFileSync(join(dist, file), "utf8").includes(PARSED_INPUT_CALLBACK);
      } catch {
        return false;
      }
    });
  } catch {
    supported = false;
  }
  return supported;
}

/**
 * A failure answered in the chain (a stub's `throw`, strict mode's refusal, a middleware's error), turned
 * into what the model reads the way the tool's own failures are: through the SDK's `invoke`, whose hook
 * right before `execute` raises `error` instead, so the tool's `errorFunction` (or the SDK's default) makes
 * the text and the real `execute` never runs. `undefined` where the SDK has no such hook.
 */
export function throughErrorFunction(
  invoke: (...args: unknown[]) => unknown,
  thisArg: unknown,
  args: readonly unknown[],
  error: unknown,
): Promise<unknown> | undefined {
  if (!hookSupported()) return undefined;
  const details = (args[2] ?? {}) as object;
  const raising = new Proxy(details, {
    get(target, key, receiver) {
      if (typeof key === "symbol" && key.description === PARSED_INPUT_CALLBACK)
        return () => {
          throw error;
        };
      const value = Reflect.get(target, key, receiver === raising ? target : receiver) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return Promise.resolve(invoke.apply(thisArg, [args[0], args[1], raising, ...args.slice(3)]));
}
