import { globalSingleton } from "../base/global-state.js";
import { compileHttpMocks } from "./validate-http-mock.js";
import type { HttpMock } from "./types.js";

const shared = globalSingleton("sharedHttpMocks", () => ({ list: [] as readonly HttpMock[] }));

/**
 * HTTP mocks for every session created from now on in this process, before each session's own `http`. The
 * Vitest plugin calls it with `tooltrace({ http })`; under Jest, call it in a setup file. Checked now, the
 * way stub rules are; `useHttpMocks([])` clears them.
 */
export function useHttpMocks(list: readonly HttpMock[]): void {
  compileHttpMocks(list);
  shared.list = [...list];
}

/** The mocks set by {@link useHttpMocks}. */
export function sharedHttpMocks(): readonly HttpMock[] {
  return shared.list;
}
