import { spyOn } from "tinyspy";
import { globalSingleton } from "../global-state.js";
import { currentCallContext, type ToolCallHost, type ToolIdentity } from "./call-context.js";

type AnyFunction = (...args: unknown[]) => unknown;

interface Binding {
  readonly restore: () => void;
  /** The sessions that bound this executor, and the name each knows it by. */
  readonly hosts: Map<ToolCallHost, ToolIdentity>;
}

/** owner object -> property name -> binding. One spy per executor, shared by every session that binds it. */
const bindings = globalSingleton("toolBindings", () => new WeakMap<object, Map<string, Binding>>());

/**
 * Patches `owner[key]` in place with a tinyspy spy so code that already holds `owner` sees the stubs.
 * Calls made inside one of the host's turns go to the host; any other call (another test's session, no
 * session at all) goes to the original function. Returns the function that unbinds this host; the spy is
 * restored when its last host unbinds.
 */
export function bindExecutor(owner: object, key: string, identity: ToolIdentity, host: ToolCallHost): () => void {
  let byKey = bindings.get(owner);
  if (byKey === undefined) {
    byKey = new Map();
    bindings.set(owner, byKey);
  }
  let binding = byKey.get(key);
  if (binding === undefined) {
    const original = (owner as Record<string, AnyFunction>)[key] as AnyFunction;
    const hosts = new Map<ToolCallHost, ToolIdentity>();
    const descriptor = Object.getOwnPropertyDescriptor(owner, key);
    if (descriptor !== undefined && (!descriptor.configurable && !descriptor.writable)) {
      throw new TypeError(`[tooltrace] cannot patch the executor of tool "${identity.qualifiedName}": the property \`${key}\` is read-only (is the tools object frozen?). Pass tools whose executors can be replaced.`);
    }
    const spy = spyOn(owner as Record<string, AnyFunction>, key, function (this: unknown, ...args: unknown[]) {
      // tinyspy keeps every call's arguments; the trace already has them, so keep its list short.
      if (spy.callCount >= 1024) spy.reset();
      const context = currentCallContext();
      const known = context === undefined ? undefined : hosts.get(context.host);
      if (context === undefined || known === undefined) return original.apply(this, args);
      return context.host.callTool(context, known, original, this, args);
    });
    binding = { restore: () => spy.restore(), hosts };
    byKey.set(key, binding);
  }
  binding.hosts.set(host, identity);
  const bound = binding;
  return () => {
    bound.hosts.delete(host);
    if (bound.hosts.size === 0) {
      bound.restore();
      byKey.delete(key);
    }
  };
}
