/** The longest delay Node's timers take (2^31 - 1 ms, about 24.8 days): a longer one fires after 1 ms, with a warning. */
export const MAX_TIMER_MS = 2_147_483_647;
