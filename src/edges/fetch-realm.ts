import { AsyncLocalStorage } from "node:async_hooks";
import { fromAnotherRealm } from "../base/realm-end.js";

/** Node's built-in `fetch` sends every request through the dispatcher stored under this key of its realm's global. */
export const DISPATCHER = Symbol.for("undici.globalDispatcher.1");
const ROUTE = Symbol.for("tooltrace.fetchRealmRoute");

/** undici's dispatcher, as far as the guard under `fetch` uses it. */
export interface Dispatcher {
  dispatch(options: never, handler: never): boolean;
}
type Fetch = typeof globalThis.fetch;

/** What the realm `fetch` came from keeps for every realm that guards it (one per test file under Jest). */
interface Route {
  /** The dispatcher `fetch` had before the router went in. */
  readonly original: Dispatcher;
  readonly router: Dispatcher;
  /** The guard of the realm whose `fetch` sent the request being dispatched. */
  readonly guards: AsyncLocalStorage<Dispatcher>;
}

/** Where `fetch`'s requests can be guarded from this realm: the dispatcher to wrap, and how to put the guard in. */
export interface FetchRealm {
  /** The dispatcher `fetch` sends with now (Node's `Agent`, or one a test set). */
  readonly original: Dispatcher;
  /**
   * Puts `guard` under `fetch`: in `fetch`'s own realm, as its dispatcher; from another, as this realm's
   * guard (see {@link fetchRealm}), returning the `fetch` this realm's code must call for it.
   */
  install(guard: Dispatcher): Fetch | undefined;
}

/**
 * The realm `fetch` belongs to, and how to put a guard under it. Usually this realm. Jest's environments run a
 * test file in a `vm` context of its own, and give it the outer realm's `fetch` (and `Request`, `Response`),
 * whose undici reads its dispatcher from the outer realm's global, out of this realm's sight. The outer realm
 * is reached through the `Function` of `fetch`'s own realm; one router goes under `fetch` there, once per
 * process, and sends each request to the guard of the realm whose `fetch` sent it (this realm's `fetch` is
 * replaced by one that marks its requests), or on to the dispatcher when none did. So nothing of one test file
 * reaches the next one a Jest worker runs, and a file without tooltrace meets no guard. Undefined where the
 * realm cannot be reached (code generation from strings is disallowed) or has no dispatcher.
 */
export function fetchRealm(realmFetch: Fetch): FetchRealm | undefined {
  const own = globalThis as unknown as Record<symbol, Dispatcher | undefined>;
  if (!fromAnotherRealm(realmFetch)) {
    // Reading `Request` loads Node's fetch, which creates the dispatcher (it is lazy until then).
    void globalThis.Request;
    const original = dispatcherIn(own);
    return (
      original && {
        original,
        install: (guard) => {
          own[DISPATCHER] = guard;
          return undefined;
        },
      }
    );
  }
  const outer = realmGlobal(realmFetch);
  if (outer === undefined) return undefined;
  void outer.Request;
  const route = routeIn(outer);
  return (
    route && {
      original: route.original,
      install: (guard) => {
        // Under this realm's own key too, as Node keeps it in `fetch`'s realm: a client that hands `fetch` a
        // dispatcher of its own over the global one (the Google Gen AI SDK's) reads it from this global.
        own[DISPATCHER] = guard;
        return function fetch(input, init) {
          return route.guards.run(guard, () => realmFetch(input, init));
        };
      },
    }
  );
}

type OuterGlobal = Record<symbol, unknown> & { Request?: unknown; Function: FunctionConstructor };

function dispatcherIn(global: Record<symbol, unknown>): Dispatcher | undefined {
  const dispatcher = global[DISPATCHER] as Dispatcher | undefined;
  return dispatcher !== undefined && typeof dispatcher.dispatch === "function" ? dispatcher : undefined;
}

/** The global of the realm `fetch` was made in, through that realm's own `Function`. */
function realmGlobal(fetch: Fetch): OuterGlobal | undefined {
  try {
    const OuterFunction = (Object.getPrototypeOf(fetch) as { constructor?: FunctionConstructor } | null)?.constructor;
    if (typeof OuterFunction !== "function") return undefined;
    const outer = OuterFunction("return globalThis")() as OuterGlobal | undefined;
    return outer !== undefined && outer !== (globalThis as unknown) && outer.Function === OuterFunction ? outer : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The router under the outer realm's `fetch`, put in once. It is made in the outer realm, with all it holds:
 * anything made here would keep this realm (a whole test file's modules) alive for as long as the worker runs.
 */
function routeIn(outer: OuterGlobal): Route | undefined {
  const current = dispatcherIn(outer);
  const store = outer as Record<symbol, Route | undefined>;
  const route = store[ROUTE];
  if (current === undefined) return undefined;
  if (route !== undefined && current === route.router) return route;
  // The first, or a dispatcher set over the router since: a new router goes over it (an old one below finds
  // no guard in its own storage and passes every request on).
  const makeRoute = outer.Function(
    "original",
    "guards",
    `const router = Object.create(original);
    router.dispatch = function dispatch(options, handler) {
      const guard = guards.getStore();
      return (guard === undefined ? original : guard).dispatch(options, handler);
    };
    return { original, guards, router };`,
  ) as (original: Dispatcher, guards: AsyncLocalStorage<Dispatcher>) => Route;
  const fresh = makeRoute(current, new AsyncLocalStorage<Dispatcher>());
  store[ROUTE] = fresh;
  outer[DISPATCHER] = fresh.router;
  return fresh;
}
