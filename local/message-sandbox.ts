import type { FaultPlan, RunningServer } from './http-util';

/** What both message sandboxes (WhatsApp, SMS) offer tests and the outbox alike. */
export interface MessageSandbox<Message, FaultMode extends string> extends RunningServer {
  /** Accepted messages, newest first. */
  messages(): Message[];
  /** The code of the newest OTP sent to `to` (91-prefixed digits). */
  latestOtp(to: string): string | undefined;
  /** Forgets the recorded messages (and what is pending for them). */
  clear(): void;
  /** Forgets everything: messages, pending work, armed faults and changed limits. */
  reset(): void;
  /** The next `times` otherwise valid sends fail with `mode` (default once). */
  failNext(options: { times?: number; mode: FaultMode }): void;
}

/** Work a sandbox does after a send (status callbacks, delivery events), cancelled together. */
export class LaterWork {
  private readonly timers = new Set<NodeJS.Timeout>();

  /** Runs `work` after `ms`, without keeping the process alive for it. */
  run(ms: number, work: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      work();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  cancel(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}

/**
 * The part of MessageSandbox both sandboxes answer alike, from their server and records:
 * `clear` forgets the channel's records and pending work, `resetRest` what else `reset`
 * restores (limits, rates). Closing clears first, so that no pending work outlives it.
 */
export function sandboxControls<Message extends { kind: string; to: string; code?: string }, FaultMode extends string>(
  server: RunningServer,
  parts: {
    recorded: () => readonly Message[];
    clear: () => void;
    faults: FaultPlan<FaultMode>;
    resetRest: () => void;
  },
): MessageSandbox<Message, FaultMode> {
  return {
    ...server,
    close: async () => {
      parts.clear();
      await server.close();
    },
    messages: () => [...parts.recorded()],
    latestOtp: (to) => parts.recorded().find((m) => m.kind === 'otp' && m.to === to)?.code,
    clear: parts.clear,
    reset: () => {
      parts.clear();
      parts.faults.clear();
      parts.resetRest();
    },
    failNext: ({ times = 1, mode }) => parts.faults.arm(times, mode),
  };
}
