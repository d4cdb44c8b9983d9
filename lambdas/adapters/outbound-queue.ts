import type { SendMessageBatchCommandOutput } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import * as v from 'valibot';
import { isoDateTime } from '../../rules/schema';
import { type AwsJsonCall, type AwsJsonOptions, awsJson } from '../lib/aws-json';

// What the handlers hand to the outbound queue: small messages that name the
// application; the consumer reads the application itself, so no personal data sits in
// the queue. After a submit: the welcome message and the webhook. After an admin's
// approval or rejection: the decision notice, with the time of the change it notifies.
// After an erasure: the webhook's `deleted` event. After an applicant's own withdrawal:
// its confirmation, sent from the item the withdrawal left (the application is gone).
// After staff answered a grievance: the answer, sent from the ticket it names.
//
// SQS is called through its AWS JSON protocol (lambdas/lib/aws-json.ts: `AmazonSQS.<Operation>`,
// JSON 1.0, the queue URL in the input), not the SDK's client, for the cold starts (issue 16).

const applicationId = v.pipe(v.string(), v.minLength(1));

export const decisions = ['approved', 'rejected'] as const;
export type Decision = (typeof decisions)[number];

const decisionMessageSchema = v.object({
  kind: v.literal('decision'),
  applicationId,
  decision: v.picklist(decisions),
  /** When the status was set (ISO); the notice goes only if it is still the application's last change. */
  changedAt: isoDateTime(),
});
export type DecisionMessage = v.InferOutput<typeof decisionMessageSchema>;

export const outboundMessageSchema = v.variant('kind', [
  v.object({ kind: v.literal('welcome'), applicationId }),
  v.object({ kind: v.literal('webhook'), applicationId }),
  // An erased application (the applications stream's consumer sees it go): the webhook hears its id.
  v.object({ kind: v.literal('deleted'), applicationId }),
  // The confirmation of an applicant's own withdrawal (issue 21): its `WITHDRAWN#<id>` item holds the number.
  v.object({ kind: v.literal('withdrawn'), applicationId }),
  decisionMessageSchema,
  // A grievance's answer (issue 21): names the ticket, which holds the number, the language and the answer.
  v.object({ kind: v.literal('grievance-answer'), grievanceId: v.pipe(v.string(), v.regex(/^[a-z0-9]{1,40}$/)) }),
]);
export type OutboundMessage = v.InferOutput<typeof outboundMessageSchema>;

/** What a message names, for log lines: its application, or its grievance (never a number or a text). */
export const messageSubject = (message: OutboundMessage): { applicationId: string } | { grievanceId: string } =>
  message.kind === 'grievance-answer' ? { grievanceId: message.grievanceId } : { applicationId: message.applicationId };

/** SQS's longest DelaySeconds. */
export const MAX_DELAY_SECONDS = 900;
/** SQS's most entries in one SendMessageBatch. */
const BATCH_ENTRIES = 10;
/**
 * Message attribute carrying how many times a send met a provider's rate limit: the
 * consumer re-queues such a message with a growing delay, outside the body, so the body
 * stays the message's idempotency key.
 */
export const THROTTLE_ATTEMPT_ATTRIBUTE = 'throttleAttempt';

interface SendOptions {
  /** SQS DelaySeconds, clamped to 0..900. */
  readonly delaySeconds?: number;
  /** Sets THROTTLE_ATTEMPT_ATTRIBUTE. */
  readonly throttleAttempt?: number;
}

/** Some messages were not queued (after one retry of the refused entries); `failed` names them. */
export class OutboundQueueError extends Error {
  override name = 'OutboundQueueError';
  constructor(readonly failed: readonly OutboundMessage[]) {
    super(`Outbound queue refused ${failed.length} message(s)`);
  }
}

export interface OutboundQueue {
  /** Throws OutboundQueueError naming the messages that were not queued. */
  send(messages: readonly OutboundMessage[], options?: SendOptions): Promise<void>;
}

/** SQS's JSON API: `makeSqsClient`'s caller. */
export type SqsCall = AwsJsonCall;

export function makeSqsOutboundQueue(sqs: SqsCall, queueUrl: string): OutboundQueue {
  const entry = (m: OutboundMessage, i: number, options: SendOptions) => ({
    Id: String(i),
    MessageBody: JSON.stringify(m),
    ...(options.delaySeconds !== undefined && {
      DelaySeconds: Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil(options.delaySeconds))),
    }),
    ...(options.throttleAttempt !== undefined && {
      MessageAttributes: {
        [THROTTLE_ATTEMPT_ATTRIBUTE]: { DataType: 'String', StringValue: String(options.throttleAttempt) },
      },
    }),
  });
  const sendChunk = async (chunk: readonly OutboundMessage[], options: SendOptions): Promise<OutboundMessage[]> => {
    const result = await sqs<Pick<SendMessageBatchCommandOutput, 'Failed'>>('SendMessageBatch', {
      QueueUrl: queueUrl,
      Entries: chunk.map((m, i) => entry(m, i, options)),
    });
    return (result.Failed ?? []).map((f) => chunk[Number(f.Id)]!).filter(Boolean);
  };
  return {
    async send(messages, options = {}) {
      const failed: OutboundMessage[] = [];
      for (let i = 0; i < messages.length; i += BATCH_ENTRIES) {
        const chunk = messages.slice(i, i + BATCH_ENTRIES);
        // Entries refused on their own (SQS's per-entry failures, often transient) get one more try.
        let refused = await sendChunk(chunk, options).catch(() => [...chunk]);
        if (refused.length > 0) refused = await sendChunk(refused, options).catch(() => refused);
        failed.push(...refused);
      }
      if (failed.length > 0) throw new OutboundQueueError(failed);
    },
  };
}

/** Tests: the transport under the SQS caller (a fake fetch, fixed credentials). */
export type SqsTransport = Pick<AwsJsonOptions, 'fetch' | 'credentials' | 'sleep'>;

/**
 * SQS in the region (https://sqs.<region>.amazonaws.com/, credentials from the function's
 * environment), or the local queue's SQS endpoint (local/sqs-endpoint.ts) in local mode.
 */
export function makeSqsClient(
  env: { APP_MODE: 'aws' | 'local'; AWS_REGION: string; OUTBOUND_QUEUE_URL: string },
  transport: SqsTransport = {},
): SqsCall {
  return awsJson({
    service: 'sqs',
    targetPrefix: 'AmazonSQS',
    jsonVersion: '1.0',
    region: env.AWS_REGION,
    ...(env.APP_MODE === 'local' && {
      endpoint: `${new URL(env.OUTBOUND_QUEUE_URL).origin}/`,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
    ...transport,
  });
}

/** Port to the queue's ChangeMessageVisibility, so that the backoff is testable. */
export interface MessageVisibility {
  /** The record becomes visible again `seconds` from now (if it is not deleted first). */
  change(record: SQSRecord, seconds: number): Promise<void>;
}

/** `arn:aws:sqs:<region>:<account>:<name>` -> the queue URL at `origin` (AWS's regional endpoint by default). */
export function queueUrlFromArn(arn: string, origin?: string): string {
  const [, , service, region, account, name] = arn.split(':');
  if (service !== 'sqs' || !region || !account || !name) throw new Error(`Not an SQS queue ARN: ${arn}`);
  return `${origin ?? `https://sqs.${region}.amazonaws.com`}/${account}/${name}`;
}

export function makeSqsVisibility(sqs: SqsCall, origin?: string): MessageVisibility {
  return {
    async change(record, seconds) {
      await sqs('ChangeMessageVisibility', {
        QueueUrl: queueUrlFromArn(record.eventSourceARN, origin),
        ReceiptHandle: record.receiptHandle,
        VisibilityTimeout: seconds,
      });
    },
  };
}

/** SQS's ceiling for a visibility timeout. */
export const MAX_VISIBILITY_SECONDS = 12 * 3600;

/** The delay of a message put back after its `attempt`-th rate-limit refusal: base × 2^(n−1), at most 900 s, jittered down to half. */
export function throttleDelaySeconds(baseSeconds: number, attempt: number, random: () => number = Math.random): number {
  const n = Number.isFinite(attempt) && attempt >= 1 ? Math.floor(attempt) : 1;
  const ceiling = Math.min(baseSeconds * 2 ** Math.min(n - 1, 20), MAX_DELAY_SECONDS);
  return Math.min(MAX_DELAY_SECONDS, Math.max(1, Math.ceil(ceiling / 2 + (random() * ceiling) / 2)));
}

/** The next delay of a message received `receiveCount` times: base × 2^(n−1), capped at 12 h. */
export function retryDelaySeconds(baseSeconds: number, receiveCount: number): number {
  const n = Number.isFinite(receiveCount) && receiveCount >= 1 ? Math.floor(receiveCount) : 1;
  return Math.min(baseSeconds * 2 ** Math.min(n - 1, 30), MAX_VISIBILITY_SECONDS);
}
