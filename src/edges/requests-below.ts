import { globalSingleton } from "../base/global-state.js";
import type { DispatchHandler } from "./dispatch-handler.js";

/** A request `fetch` sent that is decided below its dispatcher: its method, URL and the line that sent it. */
export interface RequestBelow {
  readonly channel: "http";
  readonly method: string;
  readonly url: string;
  readonly at?: (() => string | undefined) | undefined;
}

const state = globalSingleton("requestsBelow", () => new Map<string, RequestBelow[]>());

/**
 * Notes a request handed to a layer under the guard of `fetch` (msw 3 answers at the socket): until it is
 * answered or fails, a refusal of its host at the socket names the request rather than a DNS query or a
 * connection. Returns the function that forgets it.
 */
export function handedBelow(request: RequestBelow): () => void {
  let host: string;
  try {
    host = new URL(request.url).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return () => undefined;
  }
  state.set(host, [...(state.get(host) ?? []), request]);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    const left = (state.get(host) ?? []).filter((entry) => entry !== request);
    if (left.length === 0) state.delete(host);
    else state.set(host, left);
  };
}

/** The oldest request to `host` still waiting below the guard of `fetch`, if any. */
export function requestBelow(host: string): RequestBelow | undefined {
  return state.size === 0 ? undefined : state.get(host)?.[0];
}

const SETTLING = new Set(["onHeaders", "onResponseStart", "onError", "onResponseError", "onComplete", "onResponseEnd"]);

/** `handler`, calling `settled` first when the response starts or the request fails. */
export function whenSettled(handler: DispatchHandler, settled: () => void): DispatchHandler {
  return new Proxy(handler, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== "function") return value;
      if (typeof key === "string" && SETTLING.has(key))
        return (...args: unknown[]) => {
          settled();
          return (value as (...args: unknown[]) => unknown).apply(target, args);
        };
      return (value as (...args: unknown[]) => unknown).bind(target);
    },
  });
}
