import type { Context, SNSEvent } from 'aws-lambda';
import * as v from 'valibot';
import { issuePath } from '../../rules/schema';
import { type DeliveryStore, makeDeliveryStore } from '../adapters/deliveries';
import { systemClock } from '../lib/clock';
import { dbRuntime } from '../lib/db-runtime';
import { logger } from '../lib/logger';
import { countBy, flushMetrics } from '../lib/metrics';
import { wiredOnFirstCall } from '../lib/wiring';

// SMS delivery events (docs/MESSAGING.md, "SMS events"): the stage's configuration set
// sends each event of AWS End User Messaging SMS to an SNS topic, one event JSON per SNS
// message, e.g. { "eventType": "TEXT_DELIVERED", "eventTimestamp": 1729099299998,
// "isFinal": true, "messageId": "9539975a-…", "messageStatus": "DELIVERED",
// "destinationPhoneNumber": "+91…", … }. The number is never read, stored or logged.
//
// A message that is not such an event is logged (by what was wrong, never its content)
// and skipped: thrown, SNS would retry it to no end. A DynamoDB failure throws, so that
// Lambda's asynchronous retries (and then its failure destination) take it up; the store
// makes every retry harmless.

export interface SmsEventsDeps {
  readonly deliveries: DeliveryStore;
  readonly clock: () => Date;
}

/** TEXT_SUCCESSFUL: the carrier took it; TEXT_DELIVERED: the phone did (AWS's event types for SMS). */
const progress: Record<string, 'sent' | 'delivered'> = { TEXT_SUCCESSFUL: 'sent', TEXT_DELIVERED: 'delivered' };
/** Not yet anything: the message is still on its way. */
const pending = new Set(['TEXT_QUEUED', 'TEXT_PENDING']);
/** Every failure AWS documents; the event type is the failure's code. */
const failures = new Set([
  'TEXT_BLOCKED',
  'TEXT_TTL_EXPIRED',
  'TEXT_CARRIER_UNREACHABLE',
  'TEXT_INVALID',
  'TEXT_INVALID_MESSAGE',
  'TEXT_CARRIER_BLOCKED',
  'TEXT_UNREACHABLE',
  'TEXT_SPAM',
  'TEXT_UNKNOWN',
  'TEXT_PROTECT_BLOCKED',
]);

const smsEventSchema = v.object({
  eventType: v.pipe(v.string(), v.regex(/^[A-Z_]{1,64}$/)),
  /** The id SendTextMessage answered with. */
  messageId: v.pipe(v.string(), v.minLength(1), v.maxLength(256)),
  /** Unix time in milliseconds; when odd, the time the event reached us. */
  eventTimestamp: v.fallback(v.optional(v.pipe(v.number(), v.safeInteger(), v.gtValue(0))), undefined),
});
type SmsEvent = v.InferOutput<typeof smsEventSchema>;

type Outcome = 'recorded' | 'unchanged' | 'pending' | 'skipped';

function eventAt(event: SmsEvent, now: Date): Date {
  const ms = event.eventTimestamp;
  return ms !== undefined && ms <= now.getTime() + 86_400_000 ? new Date(ms) : now;
}

export function makeHandler(deps: SmsEventsDeps) {
  async function one(message: string): Promise<Outcome> {
    let value: unknown;
    try {
      value = JSON.parse(message);
    } catch {
      logger.warn('SMS event skipped: not JSON', { bytes: message.length });
      return 'skipped';
    }
    const parsed = v.safeParse(smsEventSchema, value);
    if (!parsed.success) {
      logger.warn('SMS event skipped: not an SMS event', { fields: parsed.issues.map(issuePath) });
      return 'skipped';
    }
    const event = parsed.output;
    if (pending.has(event.eventType)) return 'pending';
    const status = progress[event.eventType] ?? (failures.has(event.eventType) ? 'failed' : undefined);
    if (!status) {
      // An event type of SMS this code does not know (or a voice or MMS event): the type only.
      logger.warn('SMS event skipped: unknown event type', { eventType: event.eventType });
      return 'skipped';
    }
    const code = status === 'failed' ? event.eventType : undefined;
    const change = await deps.deliveries.recordStatus(
      { channel: 'sms', messageId: event.messageId },
      status,
      eventAt(event, deps.clock()),
      code,
    );
    if (change === 'duplicate') return 'unchanged';
    if (status === 'delivered') countBy('MessageDelivered', 'channel', 'sms');
    if (status === 'failed') countBy('MessageFailed', 'channel_code', `sms:${event.eventType}`);
    return 'recorded';
  }

  return async (event: SNSEvent, context?: Context): Promise<void> => {
    if (context?.awsRequestId) logger.addContext(context);
    try {
      const outcomes: Outcome[] = [];
      for (const record of event.Records ?? []) {
        const message = record?.Sns?.Message;
        outcomes.push(typeof message === 'string' ? await one(message) : 'skipped');
      }
      const tally = (o: Outcome) => outcomes.filter((x) => x === o).length;
      logger.info('SMS events recorded', {
        events: outcomes.length,
        recorded: tally('recorded'),
        unchanged: tally('unchanged'),
        pending: tally('pending'),
        skipped: tally('skipped'),
      });
    } finally {
      flushMetrics();
      logger.resetKeys();
    }
  };
}

export const handler = wiredOnFirstCall(() => {
  const { db, tables } = dbRuntime('deliveries');
  return makeHandler({ deliveries: makeDeliveryStore(db, tables.deliveries, systemClock()), clock: systemClock() });
});
