import type { TurnContext } from "../pipeline/caught.js";
import { globalSingleton } from "../base/global-state.js";

/** The path segment that carries a session's route token: `http://127.0.0.1:PORT/tooltrace/<token>/v1/...`. */
export const ROUTE_SEGMENT = "tooltrace";

/** What a route token leads to: the turn running now, or why there is none. */
export type RouteTarget = { readonly context: TurnContext } | { readonly problem: string };

const routes = globalSingleton("routes", () => new Map<string, () => RouteTarget>());

/** Registers a session's token; `resolve` says which turn a request on that route belongs to right now. */
export function registerRoute(token: string, resolve: () => RouteTarget): void {
  routes.set(token, resolve);
}

/** A closed session's route: later requests get `problem`, and nothing of the session stays reachable. */
export function closeRoute(token: string, problem: string): void {
  const closed = { problem };
  routes.set(token, () => closed);
}

/**
 * Finds the route token in a URL path. Returns the target (or `undefined` when the path has no token) and
 * the path without the token segment, as the provider's SDK built it.
 */
export function resolveRoute(pathname: string): { target: RouteTarget | undefined; path: string } {
  const match = /^\/tooltrace\/([A-Za-z0-9_-]+)(\/.*)?$/.exec(pathname);
  if (match === null) return { target: undefined, path: pathname };
  const resolve = routes.get(match[1] as string);
  return { target: resolve ? resolve() : { problem: `no tooltrace session has the route token "${match[1]}"` }, path: match[2] ?? "/" };
}
