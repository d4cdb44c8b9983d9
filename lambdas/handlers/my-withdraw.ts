import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { APPLICANT_ACTOR, myApplicationRequestSchema, type WithdrawResponse } from '../../rules/my-application';
import { maskPhone } from '../../rules/phone';
import type { CardReader } from '../adapters/member-cards';
import { makeReviewStore, type ReviewStore } from '../adapters/review';
import { cardRuntime } from '../lib/card-runtime';
import { systemClock } from '../lib/clock';
import { readVerification } from '../lib/codes';
import { dbRuntime } from '../lib/db-runtime';
import { AppError, httpHandler, json, parseBody } from '../lib/http';
import { logger } from '../lib/logger';
import { wiredOnFirstCall } from '../lib/wiring';

interface Deps {
  readonly signingKey: () => Promise<string>;
  readonly applications: () => Pick<CardReader, 'byPhone'>;
  readonly review: Pick<ReviewStore, 'erase'>;
  readonly clock: () => Date;
}

/**
 * Withdrawal of consent (issue 21, DPDP Act 2023 s. 6(4) and 12): as easy as giving it, one
 * confirmation after the code. The application is erased exactly as the staff erasure
 * does (its number's guard and card go, the stream takes it out of the rollups and tells
 * the webhook `deleted`); the audit keeps only that the applicant erased it, and when. The
 * number may apply again at once.
 */
export function makeHandler({ signingKey, applications, review, clock }: Deps) {
  return httpHandler<APIGatewayProxyEventV2>(async (event) => {
    const { verificationToken } = parseBody(event, myApplicationRequestSchema);
    const now = clock();
    const verification = await readVerification(await signingKey(), verificationToken, now);
    if (!verification) throw new AppError('VERIFICATION_REQUIRED');
    const item = await applications().byPhone(verification.phone);
    if (!item) throw new AppError('NO_APPLICATION');
    const id = String(item.id);
    // Erased meanwhile (a double tap, or staff): the same answer, there is nothing left.
    if ((await review.erase(id, APPLICANT_ACTOR, now)) === 'not-found') throw new AppError('NO_APPLICATION');
    logger.info('Application withdrawn by its applicant', { applicationId: id, phone: maskPhone(verification.phone) });
    const body: WithdrawResponse = { erased: id };
    return json(200, body);
  });
}

export const handler = wiredOnFirstCall(() => {
  const runtime = cardRuntime();
  const { db, tables } = dbRuntime('applications', 'audit');
  return makeHandler({
    signingKey: runtime.secrets.signingKey,
    applications: runtime.cards,
    review: makeReviewStore(db, tables),
    clock: systemClock(),
  });
});
