import type { SQSRecord } from 'aws-lambda';
import {
  MAX_DELAY_SECONDS,
  messageSubject,
  type MessageVisibility,
  type OutboundMessage,
  type OutboundQueue,
  retryDelaySeconds,
  THROTTLE_ATTEMPT_ATTRIBUTE,
  throttleDelaySeconds,
} from '../adapters/outbound-queue';
import { WebhookError } from '../adapters/webhook';
import { DecisionNotConfiguredError, isRateLimited, PutBack, type PutBackReason } from './decision-notice-sender';
import { logger } from './logger';
import { countBy } from './metrics';
import { providerFailureFields } from './provider-failure';
import { GrievanceAnswerNotConfiguredError } from './grievance-answer-sender';
import { WithdrawalNotConfiguredError } from './withdrawal-sender';

// What the outbound consumer (lambdas/handlers/outbound-consumer.ts) does with a message
// that failed: put back without spending a receive (a decision's quiet period, a claim
// another consumer holds, a provider's rate limit), or failed with a retry delay that
// doubles with each receive and logged by what an operator must do.

/** What the failure handling needs of the consumer's dependencies (OutboundDeps). */
export interface FailureDeps {
  readonly visibility: MessageVisibility;
  /** OUTBOUND_RETRY_BASE_SECONDS. */
  readonly retryBaseSeconds: number;
  /** OUTBOUND_MAX_RECEIVE_COUNT. */
  readonly maxReceiveCount: number;
  /** The outbound queue itself, where messages are put back with a delay; without it a rate limit is an ordinary failure. */
  readonly queue?: OutboundQueue;
  readonly throttle?: { readonly baseSeconds: number; readonly maxAttempts: number; readonly random?: () => number };
}

/** Not a result the idempotency record keeps: the message went back to the queue. */
export type RequeuedResult = {
  kind: OutboundMessage['kind'];
  requeued: PutBackReason | 'throttled';
  delaySeconds: number;
};

/** How many rate-limit put-backs the message has had (its message attribute). */
function throttleAttemptOf(record: SQSRecord): number {
  const value = Number(record.messageAttributes?.[THROTTLE_ATTEMPT_ATTRIBUTE]?.stringValue ?? 0);
  return Number.isInteger(value) && value >= 0 ? value : 0;
}

/** Log fields of a failure: the error's kind and provider codes; never a URL, a credential, a number or a payload. */
export function failureFields(error: unknown): Record<string, unknown> {
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
export function makeFailureHandling(deps: FailureDeps) {
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
        ...messageSubject(message),
        ...failureFields(error),
      });
      return false;
    }
  };

  return async (record: SQSRecord, message: OutboundMessage | undefined, error: unknown): Promise<RequeuedResult> => {
    const attempt = throttleAttemptOf(record);
    if (message && error instanceof PutBack) {
      // A decision waits out its quiet period (SQS delays at most 15 minutes), or another consumer is sending it.
      if (await putBack(message, error.delaySeconds, attempt)) {
        logger.info('Message put back', {
          kind: message.kind,
          ...messageSubject(message),
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
          ...messageSubject(message),
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
      ...(message && { kind: message.kind, ...messageSubject(message) }),
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
    } else if (error instanceof WithdrawalNotConfiguredError) {
      logger.error(
        'No withdrawal confirmation template fits the stage’s channels (WHATSAPP_WITHDRAWAL_TEMPLATE, SMS_TEMPLATES withdrawn): the message is kept for retry and then in the dead-letter queue',
        fields,
      );
    } else if (error instanceof GrievanceAnswerNotConfiguredError) {
      logger.error(
        'No grievance answer template fits the stage’s channels (WHATSAPP_GRIEVANCE_TEMPLATE, SMS_TEMPLATES grievanceAnswer): the message is kept for retry and then in the dead-letter queue',
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
