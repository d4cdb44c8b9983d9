/**
 * A poll loop's sleep that other code can cut short: the local queue wakes its loop when
 * a message arrives, the queue and the stream poller when they are stopped.
 */
export interface WakeableSleep {
  /** Resolves after `ms`, or at the next `wake()`, whichever comes first. */
  sleep(ms: number): Promise<void>;
  /** Ends the sleep under way, if any; a no-op otherwise. */
  wake(): void;
}

export function wakeableSleep(): WakeableSleep {
  let wake: (() => void) | undefined;
  return {
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          wake = undefined;
          resolve();
        };
        const timer = setTimeout(done, ms);
        wake = done;
      }),
    wake: () => wake?.(),
  };
}
