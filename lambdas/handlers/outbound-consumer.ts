import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { BasePersistenceLayer } from '@aws-lambda-powertools/idempotency/persistence';
import { ChangeMessageVisibilityCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as z from 'zod';
import { maskPhone } from '../../rules/phone';
import { applicationKey, type ApplicationRepository } from '../adapters/applications';
import { makeSqsClient, type OutboundMessage, outboundMessageSchema } from '../adapters/outbound-queue';
import { applicationWebhookPayload, makeWebhookClient, type WebhookClient, WebhookError } from '../adapters/webhook';
import { type MessageGateway, WhatsAppError } from '../adapters/whatsapp';
import { makeDynamoClient } from '../lib/dynamo';
import { parseEnv, tableName } from '../lib/env';
import { countBy } from '../lib/metrics';
import { logger } from '../lib/logger';
import { publicFlowRuntime } from '../lib/public-flow';

// Delivers what the public flow queues after a submit: the welcome WhatsApp message
// and the webhook. SQS delivers at least once and the producer may retry a send, so
// each (kind, application) is sent at most once through Powertools idempotency; a
// failed message is reported alone (partial batch response) and comes back after an
// exponential backoff; after the queue's maxReceiveCount it waits in the dead-letter
// queue, intact, for a redrive.

/** Idempotency records outlive the queue's retention (4 days) and a redrive from the DLQ soon after. */
export const IDEMPOTENCY_EXPIRY_SECONDS = 7 * 24 * 3600;
/** SQS's ceiling for a visibility timeout. */
export const MAX_VISIBILITY_SECONDS = 12 * 3600;

export const outboundConsumerEnvSchema = z.object({
  /**
   * First retry delay; doubles with each receive. 0 leaves the delay to the queue's own
   * visibility timeout. Default 60 s: 1, 2, 4, 8 minutes before the dead-letter queue.
   */
  OUTBOUND_RETRY_BASE_SECONDS: z.coerce.number().int().min(0).max(MAX_VISIBILITY_SECONDS).default(60),
  /**
   * The queue's maxReceiveCount (lib/stages.ts, outbound.maxReceiveCount): a failure on
   * this receive is the last, and the message goes to the dead-letter queue.
   */
  OUTBOUND_MAX_RECEIVE_COUNT: z.coerce.number().int().min(1).max(1000).default(5),
});

/** The next delay of a message received `receiveCount` times: base × 2^(n−1), capped at 12 h. */
export function retryDelaySeconds(baseSeconds: number, receiveCount: number): number {
  const n = Number.isFinite(receiveCount) && receiveCount >= 1 ? Math.floor(receiveCount) : 1;
  return Math.min(baseSeconds * 2 ** Math.min(n - 1, 30), MAX_VISIBILITY_SECONDS);
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

export function makeSqsVisibility(client: SQSClient, origin?: string): MessageVisibility {
  return {
    async change(record, seconds) {
      await client.send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: queueUrlFromArn(record.eventSourceARN, origin),
          ReceiptHandle: record.receiptHandle,
          VisibilityTimeout: seconds,
        }),
      );
    },
  };
}

export interface OutboundDeps {
  readonly applications: Pick<ApplicationRepository, 'get'>;
  readonly gateway: () => Promise<Pick<MessageGateway, 'sendWelcome'>>;
  readonly webhook: () => Promise<WebhookClient>;
  /** Where the idempotency records live (the idempotency table in AWS and locally). */
  readonly persistenceStore: BasePersistenceLayer;
  readonly visibility: MessageVisibility;
  /** See OUTBOUND_RETRY_BASE_SECONDS. */
  readonly retryBaseSeconds: number;
  /** See OUTBOUND_MAX_RECEIVE_COUNT. */
  readonly maxReceiveCount: number;
}

/** What a delivery leaves in its idempotency record: no personal data. */
type DeliveryResult =
  | { kind: 'welcome'; messageId: string }
  | { kind: 'webhook'; status: number }
  | { kind: OutboundMessage['kind']; skipped: 'application-not-found' };

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
  const parsed = outboundMessageSchema.safeParse(json);
  if (!parsed.success) throw new InvalidMessageError('Outbound message is not {kind, applicationId}');
  // Exactly these two fields: they are the idempotency key.
  return { kind: parsed.data.kind, applicationId: parsed.data.applicationId };
}

const phoneSchema = z.object({ phone_number: z.string().regex(/^\d{12}$/) });

/** Log fields of a failure: the error's kind and provider codes; never a URL, a credential, a number or a payload. */
function failureFields(error: unknown): Record<string, unknown> {
  if (error instanceof WhatsAppError) {
    return {
      errorName: error.name,
      failure: error.failure,
      providerCode: error.provider.code,
      httpStatus: error.provider.status,
    };
  }
  if (error instanceof WebhookError) return { errorName: error.name, failure: error.failure, httpStatus: error.status };
  return { errorName: error instanceof Error ? error.name : typeof error };
}

export function makeHandler(deps: OutboundDeps) {
  const deliver = async (message: OutboundMessage): Promise<DeliveryResult> => {
    const { kind, applicationId } = message;
    const application = await deps.applications.get(applicationId);
    if (!application) {
      // Erased (or never stored): there is nobody to welcome and nothing to forward.
      logger.info('Application not found; nothing to send', { kind, applicationId });
      return { kind, skipped: 'application-not-found' };
    }
    if (kind === 'welcome') {
      const { phone_number: phone } = phoneSchema.parse(application);
      const messageId = await (await deps.gateway()).sendWelcome(phone);
      logger.info('Welcome message sent', { applicationId, phone: maskPhone(phone) });
      return { kind, messageId };
    }
    const payload = applicationWebhookPayload(application);
    const { status } = await (await deps.webhook()).deliver(payload);
    logger.info('Webhook delivered', { applicationId, httpStatus: status });
    return { kind, status };
  };

  const config = new IdempotencyConfig({ expiresAfterSeconds: IDEMPOTENCY_EXPIRY_SECONDS });
  // The payload hashed is the message itself, {kind, applicationId}. A second delivery
  // finds the completed record and returns its result without sending; one that
  // arrives while the first is still running fails with IdempotencyAlreadyInProgressError
  // and is retried later. A failed send deletes the in-progress record, so the retry sends.
  const deliverOnce = makeIdempotent(deliver, {
    persistenceStore: deps.persistenceStore,
    config,
    // Stable across function renames (the default prefix is the function's name).
    keyPrefix: 'outbound',
  });

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

  const processRecord = async (record: SQSRecord): Promise<DeliveryResult> => {
    let message: OutboundMessage | undefined;
    try {
      message = parseMessage(record.body);
      const result = await deliverOnce(message);
      countBy('OutboundDelivered', 'kind', message.kind);
      return result;
    } catch (error) {
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

/** Reads an application with a strongly consistent read: a message queued right after the write must find it. */
function consistentApplications(db: DynamoDBDocumentClient, table: string): Pick<ApplicationRepository, 'get'> {
  return {
    async get(id) {
      const result = await db.send(
        new GetCommand({ TableName: table, Key: { pk: applicationKey(id) }, ConsistentRead: true }),
      );
      return result.Item;
    },
  };
}

const runtime = publicFlowRuntime();
const consumerEnv = parseEnv(outboundConsumerEnvSchema);
export const handler = makeHandler({
  applications: consistentApplications(runtime.db, tableName('applications')),
  gateway: runtime.gateway,
  webhook: async () => {
    const secrets = await runtime.secrets();
    return makeWebhookClient({
      url: secrets.webhookUrl,
      username: secrets.webhookUsername,
      password: secrets.webhookPassword,
      timeoutMs: runtime.env.WEBHOOK_TIMEOUT_MS,
    });
  },
  persistenceStore: new DynamoDBPersistenceLayer({
    tableName: tableName('idempotency'),
    awsSdkV3Client: makeDynamoClient(runtime.env),
  }),
  visibility: makeSqsVisibility(
    makeSqsClient(runtime.env),
    // Locally the queue's ARN names the queue; the SQS endpoint is where the producer sends.
    runtime.env.APP_MODE === 'local' ? new URL(runtime.env.OUTBOUND_QUEUE_URL).origin : undefined,
  ),
  retryBaseSeconds: consumerEnv.OUTBOUND_RETRY_BASE_SECONDS,
  maxReceiveCount: consumerEnv.OUTBOUND_MAX_RECEIVE_COUNT,
});
