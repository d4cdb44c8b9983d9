import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import type * as v from 'valibot';
import { cardActionRequestSchema, type cardActionResponseSchema } from '../../rules/member-card';
import { type CardChanges, makeCardChanges } from '../adapters/member-cards';
import { systemClock } from '../lib/clock';
import { dbRuntime } from '../lib/db-runtime';
import { AppError, httpHandler, json, parseBody, pathParameter } from '../lib/http';
import { logger } from '../lib/logger';
import { requireStaff } from '../lib/staff';
import { wiredOnFirstCall } from '../lib/wiring';

interface Deps {
  readonly cards: CardChanges;
  readonly clock: () => Date;
}

/**
 * An admin revokes or reissues a member's card (issue 20), audited as `card-revoke` or
 * `card-reissue`. A reissue gives a new serial: the old link and QR stop working. An
 * application without a card, or outside the admin's districts, is not found.
 */
export function makeHandler({ cards, clock }: Deps) {
  return httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
    const staff = requireStaff(event, 'admin');
    const id = pathParameter(event, 'id');
    const { action } = parseBody(event, cardActionRequestSchema);
    const card = await cards.change(id, action, staff, clock(), staff.scope);
    if (card === 'not-found') throw new AppError('NOT_FOUND');
    logger.info('Member card changed', { applicationId: id, action });
    const body: v.InferOutput<typeof cardActionResponseSchema> = { card };
    return json(200, body);
  });
}

export const handler = wiredOnFirstCall(() => {
  const { db, tables } = dbRuntime('applications', 'audit');
  return makeHandler({ cards: makeCardChanges(db, tables), clock: systemClock() });
});
