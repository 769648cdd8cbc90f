import { createRequire, syncBuiltinESMExports } from "node:module";
import { fromAnotherRealm, undoWhenRealmEnds } from "../base/realm-end.js";
import { nativeHandleClasses } from "./native-handles.js";

const require = createRequire(import.meta.url);

/**
 * Under Jest, where Node's modules and bindings are the outer realm's and shared with every file a worker runs,
 * what the guards are about to replace on `objects` is put back when this realm's file ends (its own guards
 * would otherwise stay under the next file's, keeping this file's realm, all its modules, alive for the
 * worker's life). Each own property whose value changed since is restored. Nothing happens in tooltrace's own
 * realm (Vitest), where the guards stay for the process.
 */
export function restoreWhenRealmEnds(objects: readonly (object | undefined)[]): void {
  if (!fromAnotherRealm(require("node:net").Socket as object)) return;
  const saved = objects
    .filter((object): object is object => object !== undefined)
    .map((object) => ({ object, before: Object.getOwnPropertyDescriptors(object) as Record<PropertyKey, PropertyDescriptor> }));
  undoWhenRealmEnds(() => {
    for (const { object, before } of saved) {
      for (const key of Reflect.ownKeys(before)) {
        const was = before[key as string];
        const now = Object.getOwnPropertyDescriptor(object, key);
        if (was !== undefined && "value" in was && now !== undefined && now.value !== was.value) Object.defineProperty(object, key, was);
      }
    }
    syncBuiltinESMExports();
  });
}

/** What {@link installEdgeGuards} replaces: the native handles', c-ares', the process modules' functions. */
export function edgeTargets(): (object | undefined)[] {
  const { tcp, pipe } = nativeHandleClasses();
  const cares = binding<{ ChannelWrap?: { prototype: object } }>("cares_wrap");
  const dns = require("node:dns") as typeof import("node:dns");
  const childProcess = require("node:child_process") as typeof import("node:child_process");
  return [
    tcp,
    pipe,
    binding<{ UDP?: { prototype: object } }>("udp_wrap")?.UDP?.prototype,
    (require("node:dgram") as typeof import("node:dgram")).Socket.prototype,
    cares,
    cares?.ChannelWrap?.prototype,
    dns,
    dns.promises,
    dns.Resolver.prototype,
    dns.promises.Resolver.prototype,
    require("node:worker_threads") as object,
    childProcess,
    childProcess.ChildProcess.prototype,
    binding("spawn_sync"),
  ];
}

function binding<T extends object>(name: string): T | undefined {
  try {
    return (process as unknown as { binding(name: string): T }).binding(name);
  } catch {
    return undefined;
  }
}
