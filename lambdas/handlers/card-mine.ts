import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { myCardRequestSchema, type MyCardResponse } from '../../rules/member-card';
import { maskPhone } from '../../rules/phone';
import { cardIsLive, cardOf, type CardReader } from '../adapters/member-cards';
import type { CardKeys } from '../lib/card-keys';
import { cardRuntime } from '../lib/card-runtime';
import { systemClock } from '../lib/clock';
import { readVerification } from '../lib/codes';
import { AppError, httpHandler, json, parseBody } from '../lib/http';
import { logger } from '../lib/logger';
import { wiredOnFirstCall } from '../lib/wiring';

interface Deps {
  readonly signingKey: () => Promise<string>;
  readonly keys: () => Promise<Pick<CardKeys, 'linkOf'>>;
  readonly cards: () => Pick<CardReader, 'byPhone'>;
  readonly clock: () => Date;
}

/**
 * "Get my card" (issue 20): after the code was checked, the verification token (read, not
 * spent: the same visit may still apply) names the number; its approved application with
 * a live card answers the card link's secret part (`<serial>.<mac>`, for `/card#<link>`).
 * Anything else is NOT_A_MEMBER: the number was proved to be the caller's, so saying so
 * tells a stranger nothing.
 */
export function makeHandler({ signingKey, keys, cards, clock }: Deps) {
  return httpHandler<APIGatewayProxyEventV2>(async (event) => {
    const { verificationToken } = parseBody(event, myCardRequestSchema);
    const verification = await readVerification(await signingKey(), verificationToken, clock());
    if (!verification) throw new AppError('VERIFICATION_REQUIRED');
    const item = await cards().byPhone(verification.phone);
    const card = item && cardOf(item);
    if (!item || !card || !cardIsLive(item, card)) throw new AppError('NOT_A_MEMBER');
    logger.info('Card link given to its member', { applicationId: item.id, phone: maskPhone(verification.phone) });
    const body: MyCardResponse = { link: (await keys()).linkOf(card.serial) };
    return json(200, body);
  });
}

export const handler = wiredOnFirstCall(() => {
  const runtime = cardRuntime();
  return makeHandler({
    signingKey: runtime.secrets.signingKey,
    keys: runtime.keys,
    cards: runtime.cards,
    clock: systemClock(),
  });
});
