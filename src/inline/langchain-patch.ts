import { adoptInline } from "./adopt-inline.js";

// biome-ignore lint/suspicious/noExplicitAny: a patched method keeps whatever `this` its class gives it.
type Method = (this: any, ...args: unknown[]) => unknown;

const PATCHED = Symbol.for("tooltrace.langchainToolsPatched");

/**
 * LangChain's `StructuredTool.prototype.call`, where every tool's call goes (`invoke`, a `ToolNode`, an agent
 * made with `createAgent`, a tool bound with `bindTools` and called by hand): in a session's turn, the tool joins
 * the session first, so its `_call` goes through the session's chain. Once per class, whatever copy loads it.
 */
export function patchLangChainTools(StructuredTool: { prototype: object } | undefined): void {
  const proto = StructuredTool?.prototype as (Record<string | symbol, unknown> & { call?: Method }) | undefined;
  if (proto === undefined || typeof proto.call !== "function" || proto[PATCHED] === true) return;
  const call = proto.call;
  Object.defineProperty(proto, PATCHED, { value: true });
  proto.call = function call_(this: { name?: unknown }, ...args: unknown[]) {
    if (typeof this.name === "string") adoptInline([this], "a LangChain tool");
    return call.apply(this, args);
  };
}
