import type { RunningServer } from './http-util';

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
