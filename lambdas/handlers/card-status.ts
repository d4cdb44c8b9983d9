import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { cardStatusRequestSchema, type CardStatusResponse } from '../../rules/member-card';
import { cardIsLive, cardOf, type CardReader } from '../adapters/member-cards';
import type { CardKeys } from '../lib/card-keys';
import { cardRuntime } from '../lib/card-runtime';
import { httpHandler, json, parseBody } from '../lib/http';
import { wiredOnFirstCall } from '../lib/wiring';

interface Deps {
  readonly keys: () => Promise<Pick<CardKeys, 'verify'>>;
  readonly cards: () => Pick<CardReader, 'bySerial'>;
}

/**
 * The verification page's online check of a QR (issue 20): `{ valid }` and nothing else.
 * The signature is checked first: a token this stage did not sign is answered without
 * reading the table, so nothing can be learnt (or made to cost) by trying serials. A
 * signed one is valid while its serial is the application's current card, not revoked,
 * and the application exists and is approved.
 */
export function makeHandler({ keys, cards }: Deps) {
  return httpHandler<APIGatewayProxyEventV2>(async (event) => {
    const { token } = parseBody(event, cardStatusRequestSchema);
    const claims = (await keys()).verify(token);
    const item = claims && (await cards().bySerial(claims.s));
    const card = item && cardOf(item);
    const body: CardStatusResponse = { valid: Boolean(item && card && cardIsLive(item, card)) };
    return json(200, body);
  });
}

export const handler = wiredOnFirstCall(() => {
  const runtime = cardRuntime();
  return makeHandler({ keys: runtime.keys, cards: runtime.cards });
});
