import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as v from 'valibot';
import { APPLICANT_ACTOR, myApplicationRequestSchema, type WithdrawResponse } from '../../rules/my-application';
import { maskPhone } from '../../rules/phone';
import type { CardReader } from '../adapters/member-cards';
import { makeSqsClient, makeSqsOutboundQueue, type OutboundQueue } from '../adapters/outbound-queue';
import { makeReviewStore, type ReviewStore } from '../adapters/review';
import { cardRuntime } from '../lib/card-runtime';
import { systemClock } from '../lib/clock';
import { readVerification } from '../lib/codes';
import { dbRuntime } from '../lib/db-runtime';
import { parseEnv, publicFlowEnvSchema } from '../lib/env';
import { AppError, httpHandler, json, parseBody } from '../lib/http';
import { logger } from '../lib/logger';
import { countBy } from '../lib/metrics';
import { tracedCall } from '../lib/tracing';
import { wiredOnFirstCall } from '../lib/wiring';

interface Deps {
  readonly signingKey: () => Promise<string>;
  readonly applications: () => Pick<CardReader, 'byPhone'>;
  readonly review: Pick<ReviewStore, 'erase' | 'withdraw'>;
  readonly clock: () => Date;
  /** Where the confirmation message is queued, when the stage sends them (WITHDRAWAL_CONFIRMATIONS_ENABLED). */
  readonly confirmations?: { readonly queue: Pick<OutboundQueue, 'send'> };
}

/**
 * Queues the confirmation (the consumer finds the number in the withdrawal's own item);
 * false when the queue refused even after the adapter's retry. The withdrawal stands
 * either way; the log line names the id only, so that the runbook can queue it again
 * while the item lasts (a day).
 */
async function queueConfirmation(queue: Pick<OutboundQueue, 'send'>, applicationId: string): Promise<boolean> {
  try {
    await queue.send([{ kind: 'withdrawn', applicationId }]);
    return true;
  } catch (error) {
    logger.error('Withdrawal confirmation not queued: the withdrawal stands; queue it again within a day', {
      errorName: (error as Error).name,
      applicationId,
    });
    countBy('OutboundFailed', 'kind', 'withdrawn');
    return false;
  }
}

/**
 * Withdrawal of consent (issue 21, DPDP Act 2023 s. 6(4) and 12): as easy as giving it, one
 * confirmation after the code. The application is erased exactly as the staff erasure
 * does (its number's guard and card go, the stream takes it out of the rollups and tells
 * the webhook `deleted`); the audit keeps only that the applicant erased it, and when. The
 * number may apply again at once. Where the stage sends them, a confirmation message
 * follows: the erasure's own transaction keeps the number and language for it (a day at
 * most), and the queue gets the application's id only.
 */
export function makeHandler({ signingKey, applications, review, clock, confirmations }: Deps) {
  return httpHandler<APIGatewayProxyEventV2>(async (event) => {
    const { verificationToken } = parseBody(event, myApplicationRequestSchema);
    const now = clock();
    const verification = await readVerification(await signingKey(), verificationToken, now);
    if (!verification) throw new AppError('VERIFICATION_REQUIRED');
    const item = await applications().byPhone(verification.phone);
    if (!item) throw new AppError('NO_APPLICATION');
    const id = String(item.id);
    // Erased meanwhile (a double tap, or staff): the same answer, there is nothing left.
    const outcome = confirmations ? await review.withdraw(id, now) : await review.erase(id, APPLICANT_ACTOR, now);
    if (outcome === 'not-found') throw new AppError('NO_APPLICATION');
    logger.info('Application withdrawn by its applicant', { applicationId: id, phone: maskPhone(verification.phone) });
    const confirmationQueued = confirmations ? await queueConfirmation(confirmations.queue, id) : false;
    const body: WithdrawResponse = { erased: id, confirmationQueued };
    return json(200, body);
  });
}

export const handler = wiredOnFirstCall(() => {
  const runtime = cardRuntime();
  const { db, tables } = dbRuntime('applications', 'audit', 'deliveries');
  const messaging = parseEnv(
    v.pick(publicFlowEnvSchema, ['APP_MODE', 'AWS_REGION', 'OUTBOUND_QUEUE_URL', 'WITHDRAWAL_CONFIRMATIONS_ENABLED']),
  );
  const confirm = messaging.WITHDRAWAL_CONFIRMATIONS_ENABLED;
  if (confirm && !messaging.OUTBOUND_QUEUE_URL) {
    throw new Error('Invalid function configuration: OUTBOUND_QUEUE_URL (withdrawal confirmations are on)');
  }
  return makeHandler({
    signingKey: runtime.secrets.signingKey,
    applications: runtime.cards,
    review: makeReviewStore(db, tables),
    clock: systemClock(),
    ...(confirm && {
      confirmations: {
        queue: makeSqsOutboundQueue(tracedCall('SQS', makeSqsClient(messaging)), messaging.OUTBOUND_QUEUE_URL),
      },
    }),
  });
});
