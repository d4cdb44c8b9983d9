// A per-container pacer (a token bucket, kept as the time the next send may start):
// `take()` resolves when one more send stays under `ratePerSecond`, with bursts of at
// most `burst` sends. Callers that arrive together are given consecutive slots.

export interface Pacer {
  take(): Promise<void>;
}

export function makePacer(
  ratePerSecond: number,
  options: { burst?: number; now?: () => number; sleep?: (ms: number) => Promise<void> } = {},
): Pacer {
  if (!(ratePerSecond > 0)) return { take: () => Promise.resolve() };
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const interval = 1000 / ratePerSecond;
  const burst = Math.max(1, Math.floor(options.burst ?? ratePerSecond));
  const tolerance = (burst - 1) * interval;
  // The theoretical arrival time of the next send (GCRA): a bucket of `burst` tokens refilled every `interval`.
  let next = 0;
  return {
    async take() {
      const t = now();
      next = Math.max(next, t);
      const wait = next - tolerance - t;
      next += interval;
      if (wait > 0) await sleep(wait);
    },
  };
}
