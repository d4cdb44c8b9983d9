import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import type { BasePersistenceLayer } from '@aws-lambda-powertools/idempotency/persistence';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as v from 'valibot';
import type { OtpChannel } from '../../rules/api';
import { makeApplicationRepository } from '../adapters/applications';
import { makeDecisionNoticeStore } from '../adapters/decision-notices';
import { makeGrievanceReader } from '../adapters/grievances';
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
} from '../adapters/outbound-queue';
import { applicationWebhookPayload, makeWebhookClient, type WebhookClient } from '../adapters/webhook';
import { makeWithdrawalConfirmationStore } from '../adapters/withdrawal-confirmations';
import { cardKeysOf } from '../lib/card-keys';
import { systemClock } from '../lib/clock';
import { makeDocumentClient } from '../lib/dynamo';
import { envInt, parseEnv, tableName } from '../lib/env';
import {
  type GrievanceAnswerDeps,
  GrievanceAnswerNotConfiguredError,
  type GrievanceAnswerResult,
  makeGrievanceAnswerSender,
} from '../lib/grievance-answer-sender';
import { grievanceLinksOf } from '../lib/grievance-links';
import {
  type DecisionDeps,
  DecisionNotConfiguredError,
  type DecisionResult,
  makeDecisionNoticeSender,
} from '../lib/decision-notice-sender';
import { logger } from '../lib/logger';
import { countBy } from '../lib/metrics';
import { failureFields, makeFailureHandling, type RequeuedResult } from '../lib/outbound-failure';
import { makePacer, type Pacer } from '../lib/pacer';
import { publicFlowRuntime } from '../lib/public-flow';
import { tracedCall, tracedDb } from '../lib/tracing';
import { makeWelcomeSender, type WelcomeDeps, type WelcomeResult } from '../lib/welcome-sender';
import {
  makeWithdrawalSender,
  type WithdrawalDeps,
  WithdrawalNotConfiguredError,
  type WithdrawnResult,
} from '../lib/withdrawal-sender';
import { wiredOnFirstCall } from '../lib/wiring';

// Delivers what the handlers queue: after a submit the welcome WhatsApp message and the
// webhook; after an approval or a rejection the decision notice (docs/MESSAGING.md,
// "Decision notices"); after an applicant's own withdrawal its confirmation, from the item
// the withdrawal left; after staff answered a grievance, the answer, from its ticket. SQS delivers at least once and the producer may retry a send, so
// each message is handled at most once through Powertools idempotency, and a decision
// notice goes at most once per application and decision through its claim in the
// deliveries table. A failed message is reported alone (partial batch response) and
// comes back after an exponential backoff; after the queue's maxReceiveCount it waits in
// the dead-letter queue, intact, for a redrive.
//
// Two cases are not failures and spend none of the message's receives: a decision whose
// quiet period has not passed, and a send that met a provider's rate limit. A copy of
// the message goes back to the queue with a delay and the original counts as processed
// (lambdas/lib/outbound-failure.ts).

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
  /** The confirmations of applicants' own withdrawals (issue 21); without it a `withdrawn` message fails. */
  readonly withdrawals?: WithdrawalDeps;
  /** The answers to grievances (issue 21); without it a `grievance-answer` message fails. */
  readonly grievanceAnswers?: GrievanceAnswerDeps;
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
  | WithdrawnResult
  | GrievanceAnswerResult
  | { kind: OutboundMessage['kind']; skipped: 'application-not-found' }
  | RequeuedResult;

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
  if (m.kind === 'decision')
    return { kind: m.kind, applicationId: m.applicationId, decision: m.decision, changedAt: m.changedAt };
  return m.kind === 'grievance-answer'
    ? { kind: m.kind, grievanceId: m.grievanceId }
    : { kind: m.kind, applicationId: m.applicationId };
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
  const sendWithdrawal =
    deps.withdrawals &&
    makeWithdrawalSender(deps.withdrawals, { deliveries: deps.deliveries, pace, clock, afterAccepted });

  const sendGrievanceAnswer =
    deps.grievanceAnswers &&
    makeGrievanceAnswerSender(deps.grievanceAnswers, { deliveries: deps.deliveries, pace, clock, afterAccepted });

  const deliver = async (message: OutboundMessage): Promise<DeliveryResult> => {
    if (message.kind === 'grievance-answer') {
      // The ticket holds the number, the language and the answer.
      if (!sendGrievanceAnswer) throw new GrievanceAnswerNotConfiguredError('Grievance answers are not wired in');
      return sendGrievanceAnswer(message.grievanceId);
    }
    const { kind, applicationId } = message;
    if (kind === 'deleted') {
      const { status } = await (await deps.webhook()).deliver({ event: 'deleted', application_id: applicationId });
      logger.info('Webhook told of an erasure', { applicationId, httpStatus: status });
      return { kind, status };
    }
    if (kind === 'withdrawn') {
      // The application is gone: the withdrawal's own item holds the number (WITHDRAWN#<id>).
      if (!sendWithdrawal) throw new WithdrawalNotConfiguredError('Withdrawal confirmations are not wired in');
      return sendWithdrawal(applicationId);
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
    withdrawals: {
      settings: {
        channels: runtime.env.OTP_CHANNELS,
        whatsappTemplate: runtime.env.WHATSAPP_WITHDRAWAL_TEMPLATE,
        smsTemplates: runtime.env.SMS_TEMPLATES || undefined,
      },
      whatsapp: runtime.gateway,
      sms: runtime.sms,
      confirmations: makeWithdrawalConfirmationStore(runtime.db, tableName('deliveries')),
      recipients: { record: (phone, now) => runtime.recipients().record(phone, now) },
    },
    grievanceAnswers: {
      settings: {
        channels: runtime.env.OTP_CHANNELS,
        whatsappTemplate: runtime.env.WHATSAPP_GRIEVANCE_TEMPLATE,
        smsTemplates: runtime.env.SMS_TEMPLATES || undefined,
      },
      whatsapp: runtime.gateway,
      sms: runtime.sms,
      // Its grant: GetItem and UpdateItem of `GRIEVANCE#` items only (lib/functions.ts).
      grievances: makeGrievanceReader(runtime.db, tableName('grievances')),
      links: async () => grievanceLinksOf(await runtime.secrets.cardKey()),
      recipients: { record: (phone, now) => runtime.recipients().record(phone, now) },
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
