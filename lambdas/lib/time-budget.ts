// A request that must answer in time: the code request checks the captcha, stores a code
// and sends it by WhatsApp, then by SMS when WhatsApp refuses, all within its function's
// 10 s. One deadline is set when the request starts, shorter than the function's timeout
// (REQUEST_DEADLINE_MS, set by the stack from that timeout: lib/stateless-stack.ts), and
// each call is given what is left of it, never more than its own configured timeout.

export interface CallOptions {
  /** At most this long for this one call (never longer than the configured timeout). */
  readonly timeoutMs?: number;
}

/** The configured timeout, shortened by a caller's own. */
export const callTimeout = (configured: number, options?: CallOptions): number =>
  Math.max(1, Math.min(configured, options?.timeoutMs ?? configured));

/** What a request keeps for itself after its provider calls: a write, the answer, slack. */
export const ANSWER_MARGIN_MS = 1500;

/** The deadline of a request in a function with this timeout: the timeout less the answer's margin. */
export const requestDeadlineMs = (functionTimeoutSeconds: number): number =>
  functionTimeoutSeconds * 1000 - ANSWER_MARGIN_MS;

/** A request's one deadline. */
export interface RequestDeadline {
  /** Epoch milliseconds by which the provider calls must be done. */
  readonly at: number;
  /** Milliseconds left (0 once passed). */
  left(now?: number): number;
  /** Options for a call that may take a `share` of what is left, less `reserveMs` kept for later calls. */
  call(options?: { share?: number; reserveMs?: number }, now?: number): CallOptions;
}

/**
 * The request's deadline, set at its start: `budgetMs` from now, or sooner when Lambda has
 * less left than that (less the margin). A context without a clock, as in a unit test, gets
 * the budget.
 */
export function requestDeadline(
  context: { getRemainingTimeInMillis?: () => number } | undefined,
  budgetMs: number,
  now = Date.now(),
): RequestDeadline {
  const remaining = context?.getRemainingTimeInMillis?.();
  const at = now + Math.min(budgetMs, remaining === undefined ? budgetMs : remaining - ANSWER_MARGIN_MS);
  const left = (time = Date.now()) => Math.max(0, at - time);
  return {
    at,
    left,
    call: ({ share = 1, reserveMs = 0 } = {}, time = Date.now()) => ({
      timeoutMs: Math.max(1, Math.floor((left(time) - reserveMs) * share)),
    }),
  };
}
