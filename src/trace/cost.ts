import { usageError } from "../exits/errors.js";
import { globalSingleton } from "../base/global-state.js";
import { MODEL_PRICES, type ModelPrice } from "./prices.js";
import type { ModelCall, Turn, Usage } from "./types.js";

/** Prices by model id (USD per million tokens), over the shipped {@link MODEL_PRICES}. */
export type Prices = Readonly<Record<string, ModelPrice>>;

/** What a set of model calls cost. */
export interface CostTotal {
  /** The sum of the priced calls' `costUsd`; absent when no call had a price. */
  readonly costUsd?: number;
  /** Calls to a real model whose model had no price: their cost is not in `costUsd`. */
  readonly unpricedCalls?: number;
}

const shared = globalSingleton("sharedPrices", () => ({ prices: {} as Prices }));

/** Checks a `prices` option: each model's `input` and `output` non-negative finite numbers. */
export function checkPrices(prices: unknown, option: string): Prices {
  if (prices === undefined) return {};
  if (typeof prices !== "object" || prices === null || Array.isArray(prices))
    throw usageError(
      `${option}: an object of prices by model id, got ${String(prices)}.`,
      'write { "gpt-4o": { input: 2.5, output: 10 } }.',
    );
  for (const [model, price] of Object.entries(prices)) {
    for (const side of ["input", "output"] as const) {
      const value = (price as Partial<ModelPrice> | undefined)?.[side];
      if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
        throw usageError(
          `${option}: "${model}".${side} must be a non-negative finite number (USD per million tokens), got ${String(value)}.`,
          `write { "${model}": { input: 2.5, output: 10 } }.`,
        );
    }
  }
  return prices as Prices;
}

/** Prices for every session created from now on in this process, over the shipped ones (the plugin's `prices`). */
export function usePrices(prices: Prices | undefined): void {
  shared.prices = checkPrices(prices, "tooltrace({ prices })");
}

/** The shipped prices, the process's (the plugin's) over them, and `own` (a session's) over both. */
export function pricesFor(own: Prices | undefined): Prices {
  return { ...MODEL_PRICES, ...shared.prices, ...own };
}

/** A model's price: its id's, else its undated id's (`-20250514`), without a provider prefix (`openai/`). */
export function priceOf(model: string, prices: Prices): ModelPrice | undefined {
  const bare = model.replace(/^.*\//, "");
  for (const id of [model, bare, bare.replace(/-(?:\d{8}|\d{4}-\d{2}-\d{2}|latest)$/, "")]) {
    const price = prices[id];
    if (price !== undefined) return price;
  }
  return undefined;
}

/** What `usage` of `model` cost in USD, or undefined when the model has no price. */
export function costOf(model: string, usage: Usage, prices: Prices): number | undefined {
  const price = priceOf(model, prices);
  if (price === undefined) return undefined;
  return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000;
}

/** Whether a call reached a real model and spent money: answered by the network, not a mock, cassette or fault. */
export function isPaidCall(call: ModelCall): boolean {
  return call.answeredBy?.kind === "real" && call.status === "completed";
}

/** The cost of `calls`: the sum of their `costUsd`, and how many paid calls had no price. */
export function totalCost(calls: Iterable<ModelCall>): CostTotal {
  let costUsd: number | undefined;
  let unpriced = 0;
  for (const call of calls) {
    if (call.costUsd !== undefined) costUsd = (costUsd ?? 0) + call.costUsd;
    else if (isPaidCall(call)) unpriced += 1;
  }
  return { ...(costUsd !== undefined ? { costUsd } : {}), ...(unpriced > 0 ? { unpricedCalls: unpriced } : {}) };
}

/** Adds cost totals. */
export function addCost(a: CostTotal, b: CostTotal): CostTotal {
  const costUsd = a.costUsd === undefined ? b.costUsd : a.costUsd + (b.costUsd ?? 0);
  const unpriced = (a.unpricedCalls ?? 0) + (b.unpricedCalls ?? 0);
  return { ...(costUsd !== undefined ? { costUsd } : {}), ...(unpriced > 0 ? { unpricedCalls: unpriced } : {}) };
}

/** What `turns` cost: the sum of their `costUsd` and `unpricedCalls`. */
export function turnsCost(turns: Iterable<Pick<Turn, "costUsd" | "unpricedCalls">>): CostTotal {
  let total: CostTotal = {};
  for (const turn of turns) total = addCost(total, turn);
  return total;
}

/** A cost in USD as a summary prints it: in cents when it is whole cents or a dollar or more, else to four digits. */
export function formatUsd(usd: number): string {
  const wholeCents = Math.abs(Math.round(usd * 100) - usd * 100) < 1e-9;
  return usd >= 1 || wholeCents ? `$${usd.toFixed(2)}` : `$${Number(usd.toPrecision(4))}`;
}

/** A cost total as a summary says it (`$0.0123`, `$0.0123 + 2 calls without a price`), or "" with no paid call. */
export function costText(total: CostTotal): string {
  const unpriced = total.unpricedCalls ?? 0;
  const calls = unpriced === 0 ? "" : `${unpriced} call${unpriced === 1 ? "" : "s"} without a price`;
  if (total.costUsd === undefined) return calls;
  return calls === "" ? formatUsd(total.costUsd) : `${formatUsd(total.costUsd)} + ${calls}`;
}
