import { createRequire } from "node:module";

// biome-ignore lint/suspicious/noExplicitAny: a patched method keeps whatever `this` its class gives it.
type Method = (this: any, ...args: unknown[]) => unknown;
type Proto = Record<string, Method>;

interface Bindings {
  binding?(name: string): { TCP?: { prototype: Proto }; Pipe?: { prototype: Proto } };
}

/**
 * The prototypes of the native TCP and pipe handles every `net.Socket` wraps, where a guard sees each
 * connection whatever library made it. Node's bindings give them at once; where those are closed (the
 * permission model), a TLS socket made without a transport owns a fresh TCP handle (loading `tls`, a few ms).
 */
export function nativeHandleClasses(): { readonly tcp: Proto; readonly pipe: Proto | undefined } {
  const bindings = process as unknown as Bindings;
  try {
    const tcp = bindings.binding?.("tcp_wrap").TCP?.prototype;
    const pipe = bindings.binding?.("pipe_wrap").Pipe?.prototype;
    if (tcp !== undefined) return { tcp, pipe };
  } catch {
    // Closed: found below.
  }
  const tls = createRequire(import.meta.url)("node:tls") as typeof import("node:tls");
  const probe = new tls.TLSSocket(null as unknown as import("node:net").Socket);
  const handle = (probe as unknown as { _handle: { _parent: object } })._handle;
  const tcp = Object.getPrototypeOf(handle._parent) as Proto;
  probe.destroy();
  return { tcp, pipe: undefined };
}
