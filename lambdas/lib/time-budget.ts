// A call to a provider inside a request that must answer in time: the code request sends
// by WhatsApp, then by SMS when WhatsApp refuses, all within its function's 10 s. Each
// call's timeout is the configured one, shortened to what the request has left.

export interface CallOptions {
  /** At most this long for this one call (never longer than the configured timeout). */
  readonly timeoutMs?: number;
}

/** The configured timeout, shortened by a caller's own. */
export const callTimeout = (configured: number, options?: CallOptions): number =>
  Math.max(1, Math.min(configured, options?.timeoutMs ?? configured));

/** What a request keeps for itself after its provider calls: a write, the answer, slack. */
export const ANSWER_MARGIN_MS = 1500;

/**
 * The time by which the provider calls must be done, from Lambda's remaining time (a
 * context without one, as in a unit test, gets the API's 10 s).
 */
export function sendDeadline(context: { getRemainingTimeInMillis?: () => number } | undefined, now = Date.now()) {
  const remaining = context?.getRemainingTimeInMillis?.() ?? 10_000;
  return now + remaining - ANSWER_MARGIN_MS;
}
