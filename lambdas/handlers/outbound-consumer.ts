import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import type { BasePersistenceLayer } from '@aws-lambda-powertools/idempotency/persistence';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as v from 'valibot';
import type { OtpChannel } from '../../rules/api';
import { makeApplicationRepository } from '../adapters/applications';
import { makeDecisionNoticeStore } from '../adapters/decision-notices';
import { DbPersistenceLayer } from '../adapters/idempotency-store';
import {
  MAX_DELAY_SECONDS,
  MAX_VISIBILITY_SECONDS,
  makeSqsClient,
  makeSqsOutboundQueue,
  makeSqsVisibility,
  type MessageVisibility,
  type OutboundMessage,
  outboundMessageSchema,
  type OutboundQueue,
  retryDelaySeconds,
  THROTTLE_ATTEMPT_ATTRIBUTE,
  throttleDelaySeconds,
} from '../adapters/outbound-queue';
import { applicationWebhookPayload, makeWebhookClient, type WebhookClient, WebhookError } from '../adapters/webhook';
import { cardKeysOf } from '../lib/card-keys';
import { systemClock } from '../lib/clock';
import { makeDocumentClient } from '../lib/dynamo';
import { envInt, parseEnv, tableName } from '../lib/env';
import {
  type DecisionDeps,
  DecisionNotConfiguredError,
  type DecisionResult,
  isRateLimited,
  makeDecisionNoticeSender,
  PutBack,
  type PutBackReason,
} from '../lib/decision-notice-sender';
import { logger } from '../lib/logger';
import { countBy } from '../lib/metrics';
import { makePacer, type Pacer } from '../lib/pacer';
import { providerFailureFields } from '../lib/provider-failure';
import { publicFlowRuntime } from '../lib/public-flow';
import { tracedCall, tracedDb } from '../lib/tracing';
import { makeWelcomeSender, type WelcomeDeps, type WelcomeResult } from '../lib/welcome-sender';
import { wiredOnFirstCall } from '../lib/wiring';

// Delivers what the handlers queue: after a submit the welcome WhatsApp message and the
// webhook; after an approval or a rejection the decision notice (docs/MESSAGING.md,
// "Decision notices"). SQS delivers at least once and the producer may retry a send, so
// each message is handled at most once through Powertools idempotency, and a decision
// notice goes at most once per application and decision through its claim in the
// deliveries table. A failed message is reported alone (partial batch response) and
// comes back after an exponential backoff; after the queue's maxReceiveCount it waits in
// the dead-letter queue, intact, for a redrive.
//
// Two cases are not failures and spend none of the message's receives: a decision whose
// quiet period has not passed, and a send that met a provider's rate limit. A copy of
// the message goes back to the queue with a delay and the original counts as processed.

/** Idempotency records outlive the queue's retention (4 days) and a redrive from the DLQ soon after. */
export const IDEMPOTENCY_EXPIRY_SECONDS = 7 * 24 * 3600;
export const outboundConsumerEnvSchema = v.object({
  /**
   * First retry delay; doubles with each receive. 0 leaves the delay to the queue's own
   * visibility timeout. Default 60 s: 1, 2, 4, 8 minutes before the dead-letter queue.
   */
  OUTBOUND_RETRY_BASE_SECONDS: envInt(60, { min: 0, max: MAX_VISIBILITY_SECONDS }),
  /**
   * The queue's maxReceiveCount (lib/stages.ts, outbound.maxReceiveCount): a failure on
   * this receive is the last, and the message goes to the dead-letter queue.
   */
  OUTBOUND_MAX_RECEIVE_COUNT: envInt(5, { max: 1000 }),
  /**
   * The event source mapping's maxConcurrency (lib/constructs/outbound-messaging.ts): at
   * most this many containers handle batches at once, each one batch at a time, so each
   * container keeps to 1/maxConcurrency of a channel's rate and together they stay under it.
   */
  OUTBOUND_MAX_CONCURRENCY: envInt(5, { max: 1000 }),
  /** First delay of a send put back after a rate-limit refusal; doubles (with jitter) per attempt, at most 900 s. */
  OUTBOUND_THROTTLE_BASE_SECONDS: envInt(1, { max: MAX_DELAY_SECONDS }),
  /** Rate-limit put-backs of one message before a refusal counts as an ordinary failure (and spends a receive). */
  OUTBOUND_THROTTLE_MAX_ATTEMPTS: envInt(10, { min: 0, max: 100 }),
});

export interface OutboundDeps extends WelcomeDeps {
  /** The stored application, read consistently: a message queued right after the write must find it. */
  readonly applications: { get(id: string): Promise<Record<string, unknown> | undefined> };
  readonly webhook: () => Promise<WebhookClient>;
  /** Where the idempotency records live (the idempotency table in AWS and locally). */
  readonly persistenceStore: BasePersistenceLayer;
  readonly visibility: MessageVisibility;
  /** See OUTBOUND_RETRY_BASE_SECONDS. */
  readonly retryBaseSeconds: number;
  /** See OUTBOUND_MAX_RECEIVE_COUNT. */
  readonly maxReceiveCount: number;
  readonly decisions?: DecisionDeps;
  /** The outbound queue itself, where messages are put back with a delay; without it a rate limit is an ordinary failure. */
  readonly queue?: OutboundQueue;
  /** One per channel (see OUTBOUND_MAX_CONCURRENCY); none: unpaced. */
  readonly pacers?: Partial<Readonly<Record<OtpChannel, Pacer>>>;
  readonly throttle?: { readonly baseSeconds: number; readonly maxAttempts: number; readonly random?: () => number };
  readonly clock?: () => Date;
}

/** What a delivery leaves in its idempotency record: no personal data. */
export type DeliveryResult =
  | WelcomeResult
  | { kind: 'webhook' | 'deleted'; status: number }
  | DecisionResult
  | { kind: OutboundMessage['kind']; skipped: 'application-not-found' }
  /** Not a result the idempotency record keeps: the message went back to the queue. */
  | { kind: OutboundMessage['kind']; requeued: PutBackReason | 'throttled'; delaySeconds: number };

class InvalidMessageError extends Error {
  override name = 'InvalidMessageError';
}

function parseMessage(body: string): OutboundMessage {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new InvalidMessageError('Outbound message body is not JSON');
  }
  const parsed = v.safeParse(outboundMessageSchema, json);
  if (!parsed.success) throw new InvalidMessageError('Outbound message is not a known kind with its fields');
  // Exactly the schema's fields: they are the idempotency key.
  const m = parsed.output;
  return m.kind === 'decision'
    ? { kind: m.kind, applicationId: m.applicationId, decision: m.decision, changedAt: m.changedAt }
    : { kind: m.kind, applicationId: m.applicationId };
}

/** How many rate-limit put-backs the message has had (its message attribute). */
function throttleAttemptOf(record: SQSRecord): number {
  const value = Number(record.messageAttributes?.[THROTTLE_ATTEMPT_ATTRIBUTE]?.stringValue ?? 0);
  return Number.isInteger(value) && value >= 0 ? value : 0;
}

/** Log fields of a failure: the error's kind and provider codes; never a URL, a credential, a number or a payload. */
function failureFields(error: unknown): Record<string, unknown> {
  if (error instanceof WebhookError) return { errorName: error.name, failure: error.failure, httpStatus: error.status };
  if (error instanceof PutBack) return { errorName: error.name, reason: error.reason };
  return providerFailureFields(error);
}

/**
 * What becomes of a message that failed: put back (a decision's quiet period, a claim
 * another consumer holds, a provider's rate limit) without spending a receive, or failed
 * with a retry delay that doubles with each receive, and logged by what an operator must do.
 * Answers the put-back result, or throws the error for the batch to report the record failed.
 */
function makeFailureHandling(deps: OutboundDeps) {
  const throttle = deps.throttle ?? { baseSeconds: 1, maxAttempts: 10 };
  const delayRetry = async (record: SQSRecord): Promise<void> => {
    if (deps.retryBaseSeconds <= 0) return;
    const seconds = retryDelaySeconds(deps.retryBaseSeconds, Number(record.attributes.ApproximateReceiveCount));
    try {
      await deps.visibility.change(record, seconds);
    } catch (error) {
      // The queue's own visibility timeout still brings the message back.
      logger.warn('Could not set the retry delay', { messageId: record.messageId, ...failureFields(error) });
    }
  };

  /**
   * Sends a copy of the message back to the queue after `delaySeconds`: the original is
   * then reported processed, so its receive count (its retries before the dead-letter
   * queue) is not spent. False when the queue refused: the caller fails the original instead.
   */
  const putBack = async (message: OutboundMessage, delaySeconds: number, throttleAttempt: number): Promise<boolean> => {
    if (!deps.queue) return false;
    try {
      await deps.queue.send([message], {
        delaySeconds: Math.min(delaySeconds, MAX_DELAY_SECONDS),
        ...(throttleAttempt > 0 && { throttleAttempt }),
      });
      return true;
    } catch (error) {
      logger.warn('Could not put the message back; it is retried instead', {
        kind: message.kind,
        applicationId: message.applicationId,
        ...failureFields(error),
      });
      return false;
    }
  };

  return async (record: SQSRecord, message: OutboundMessage | undefined, error: unknown): Promise<DeliveryResult> => {
    const attempt = throttleAttemptOf(record);
    if (message && error instanceof PutBack) {
      // A decision waits out its quiet period (SQS delays at most 15 minutes), or another consumer is sending it.
      if (await putBack(message, error.delaySeconds, attempt)) {
        logger.info('Message put back', {
          kind: message.kind,
          applicationId: message.applicationId,
          reason: error.reason,
          delaySeconds: error.delaySeconds,
        });
        return { kind: message.kind, requeued: error.reason, delaySeconds: error.delaySeconds };
      }
    } else if (message && isRateLimited(error) && attempt < throttle.maxAttempts) {
      const delaySeconds = throttleDelaySeconds(throttle.baseSeconds, attempt + 1, throttle.random);
      if (await putBack(message, delaySeconds, attempt + 1)) {
        countBy('OutboundThrottled', 'kind', message.kind);
        logger.warn('Provider rate limit: message put back without spending a retry', {
          kind: message.kind,
          applicationId: message.applicationId,
          throttleAttempt: attempt + 1,
          delaySeconds,
          ...failureFields(error),
        });
        return { kind: message.kind, requeued: 'throttled', delaySeconds };
      }
    }
    const receiveCount = Number(record.attributes.ApproximateReceiveCount);
    // SQS moves the message to the dead-letter queue instead of receiving it again.
    const deadLettered = receiveCount >= deps.maxReceiveCount;
    const fields = {
      messageId: record.messageId,
      receiveCount,
      deadLettered,
      ...(message && { kind: message.kind, applicationId: message.applicationId }),
      ...failureFields(error),
    };
    if (error instanceof WebhookError && error.failure === 'not-configured') {
      logger.error(
        'Webhook URL is not configured (webhookUrl in the provider secret): the message is kept for retry and then in the dead-letter queue',
        fields,
      );
    } else if (error instanceof DecisionNotConfiguredError) {
      logger.error(
        'Decision notices are on but no template fits the stage’s channels (WHATSAPP_DECISION_TEMPLATES, SMS_TEMPLATES approved/rejected): the message is kept for retry and then in the dead-letter queue',
        fields,
      );
    } else {
      logger.warn(
        'Outbound message not delivered: retried, and kept in the dead-letter queue after the last receive',
        fields,
      );
    }
    const kind = message?.kind ?? 'unreadable';
    countBy('OutboundFailed', 'kind', kind);
    countBy(deadLettered ? 'OutboundDeadLettered' : 'OutboundRetried', 'kind', kind);
    await delayRetry(record);
    throw error;
  };
}

export function makeHandler(deps: OutboundDeps) {
  const clock = deps.clock ?? (() => new Date());
  const pace = (channel: OtpChannel) => deps.pacers?.[channel]?.take() ?? Promise.resolve();
  const sendDecisionNotice =
    deps.decisions && makeDecisionNoticeSender(deps.decisions, { deliveries: deps.deliveries, pace, clock });
  /** Best effort after a send the provider accepted: a failure here must not make the message retry (and send again). */
  const afterAccepted = async (what: string, fields: Record<string, unknown>, write: () => Promise<unknown>) => {
    try {
      await write();
    } catch (error) {
      logger.error(`Could not record ${what} after the send`, { ...fields, ...failureFields(error) });
    }
  };

  const sendWelcome = makeWelcomeSender(deps, { pace: () => pace('whatsapp'), clock, afterAccepted });

  const deliver = async (message: OutboundMessage): Promise<DeliveryResult> => {
    const { kind, applicationId } = message;
    if (kind === 'deleted') {
      const { status } = await (await deps.webhook()).deliver({ event: 'deleted', application_id: applicationId });
      logger.info('Webhook told of an erasure', { applicationId, httpStatus: status });
      return { kind, status };
    }
    const application = await deps.applications.get(applicationId);
    if (!application) {
      // Erased (or never stored): there is nobody to notify and nothing to forward.
      logger.info('Application not found; nothing to send', { kind, applicationId });
      return { kind, skipped: 'application-not-found' };
    }
    if (message.kind === 'decision') {
      if (!sendDecisionNotice)
        throw new DecisionNotConfiguredError('Decision notices are not wired into this consumer');
      return sendDecisionNotice(message, application);
    }
    if (kind === 'welcome') return sendWelcome(applicationId, application);
    const payload = applicationWebhookPayload(application);
    const { status } = await (await deps.webhook()).deliver(payload);
    logger.info('Webhook delivered', { applicationId, httpStatus: status });
    return { kind: 'webhook', status };
  };

  const config = new IdempotencyConfig({ expiresAfterSeconds: IDEMPOTENCY_EXPIRY_SECONDS });
  // The payload hashed is the message itself ({kind, applicationId}, and a decision's
  // decision and changedAt). A second delivery finds the completed record and returns
  // its result without sending; one that arrives while the first is still running fails
  // with IdempotencyAlreadyInProgressError and is retried later. A failed send (and a
  // put-back) deletes the in-progress record, so the retry (or the copy) sends.
  const deliverOnce = makeIdempotent(deliver, {
    persistenceStore: deps.persistenceStore,
    config,
    // Stable across function renames (the default prefix is the function's name).
    keyPrefix: 'outbound',
  });

  const onFailure = makeFailureHandling(deps);
  const processRecord = async (record: SQSRecord): Promise<DeliveryResult> => {
    let message: OutboundMessage | undefined;
    try {
      message = parseMessage(record.body);
      const result = await deliverOnce(message);
      countBy('OutboundDelivered', 'kind', message.kind);
      return result;
    } catch (error) {
      return onFailure(record, message, error);
    }
  };

  return async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    // The in-progress record expires with this invocation, so that a crash mid-send
    // does not block the message until the record's expiry.
    config.registerLambdaContext(context);
    // Lambda's request id (function_request_id) on every line of the invocation.
    logger.addContext(context);
    const processor = new BatchProcessor(EventType.SQS, { logger });
    return processPartialResponse(event, processRecord, processor, { context });
  };
}

export const handler = wiredOnFirstCall(() => {
  const runtime = publicFlowRuntime();
  tracedDb(runtime.db); // the public flow's runtime, its calls traced here only (lambdas/lib/tracing.ts)
  const applicationRepository = makeApplicationRepository(runtime.db, tableName('applications'));
  const consumerEnv = parseEnv(outboundConsumerEnvSchema);
  // Over fetch (lambdas/adapters/outbound-queue.ts): the tracer's fetch capture shows its calls.
  const sqsClient = tracedCall('SQS', makeSqsClient(runtime.env));
  /**
   * Each container's share of a channel's rate. The event source runs at most
   * OUTBOUND_MAX_CONCURRENCY containers at once, each handling one batch at a time, so
   * with 1/maxConcurrency each the function as a whole stays under
   * WHATSAPP_MESSAGES_PER_SECOND (Meta's 80/s per number by default) and
   * SMS_MESSAGES_PER_SECOND (the account's quota). 90 % of it, and sends spaced evenly (no
   * burst): requests spaced exactly at the limit arrive a little bunched, and a provider
   * counts over any one second. The OTP sends of the public flow share the same number and
   * account: a stage that expects both at their peak at once sets these rates lower.
   */
  const share = (perSecond: number) => (0.9 * perSecond) / consumerEnv.OUTBOUND_MAX_CONCURRENCY;
  const pacer = (perSecond: number) => makePacer(share(perSecond), { burst: 1 });
  return makeHandler({
    applications: {
      get: (id) => applicationRepository.get(id, { consistent: true }),
    },
    gateway: runtime.gateway,
    decisions: {
      settings: {
        channels: runtime.env.OTP_CHANNELS,
        quietSeconds: runtime.env.DECISION_QUIET_SECONDS,
        whatsappTemplates: runtime.env.WHATSAPP_DECISION_TEMPLATES || undefined,
        smsTemplates: runtime.env.SMS_TEMPLATES || undefined,
      },
      whatsapp: runtime.gateway,
      sms: runtime.sms,
      notices: makeDecisionNoticeStore(runtime.db, tableName('deliveries')),
      recipients: { record: (phone, now) => runtime.recipients().record(phone, now) },
      cardKeys: async () => cardKeysOf(await runtime.secrets.cardKey()),
    },
    whatsappTier: { limit: runtime.env.WHATSAPP_TIER_UNIQUE_PER_24H, recipients: runtime.recipients() },
    deliveries: { recordAccepted: (ref, meta, now) => runtime.deliveries().recordAccepted(ref, meta, now) },
    queue: makeSqsOutboundQueue(sqsClient, runtime.env.OUTBOUND_QUEUE_URL),
    pacers: {
      whatsapp: pacer(runtime.env.WHATSAPP_MESSAGES_PER_SECOND),
      sms: pacer(runtime.env.SMS_MESSAGES_PER_SECOND),
    },
    throttle: {
      baseSeconds: consumerEnv.OUTBOUND_THROTTLE_BASE_SECONDS,
      maxAttempts: consumerEnv.OUTBOUND_THROTTLE_MAX_ATTEMPTS,
    },
    clock: systemClock(),
    webhook: async () => {
      const secrets = await runtime.secrets.provider();
      return makeWebhookClient({
        url: secrets.webhookUrl,
        username: secrets.webhookUsername,
        password: secrets.webhookPassword,
        timeoutMs: runtime.env.WEBHOOK_TIMEOUT_MS,
      });
    },
    persistenceStore: new DbPersistenceLayer({
      tableName: tableName('idempotency'),
      db: tracedDb(makeDocumentClient(runtime.env)),
    }),
    visibility: makeSqsVisibility(
      sqsClient,
      // Locally the queue's ARN names the queue; the SQS endpoint is where the producer sends.
      runtime.env.APP_MODE === 'local' ? new URL(runtime.env.OUTBOUND_QUEUE_URL).origin : undefined,
    ),
    retryBaseSeconds: consumerEnv.OUTBOUND_RETRY_BASE_SECONDS,
    maxReceiveCount: consumerEnv.OUTBOUND_MAX_RECEIVE_COUNT,
  });
});
