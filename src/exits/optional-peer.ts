import { TooltraceError } from "./errors.js";

/**
 * Loads the part of tooltrace that needs an optional peer (`msw`, `ai`, `@openai/agents`): when the peer is
 * not installed, a tooltrace error naming it and its install line, not Node's "Cannot find package".
 */
export async function withPeer<T>(peer: string, feature: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const { code, message: text } = (error ?? {}) as { code?: unknown; message?: unknown };
    // An `import()`'s code, and a `require`'s (Node's and Jest's).
    if ((code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") && typeof text === "string" && text.includes(`'${peer}`)) {
      throw new TooltraceError(`${feature} needs ${peer}, which is not installed.`, `npm install --save-dev ${peer}`);
    }
    throw error;
  }
}
