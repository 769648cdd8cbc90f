import type { Interaction } from "../trace/types.js";

/**
 * Calls whose end of the chain answers without spending anything (see `Terminal.peek`): a fault that cuts the
 * answer marks its call, so the mock model's script step is left for the retry.
 */
export const peeking = new WeakSet<Interaction>();
