import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { matchConstituency, matchDistrict } from '../../rules/districts';
import { istDay } from '../../rules/ist';
import { cardRequestSchema, type CardView } from '../../rules/member-card';
import { cardIsLive, cardOf, type CardReader } from '../adapters/member-cards';
import type { StoredItem } from '../adapters/application-items';
import { cardClaimsOf, type CardKeys } from '../lib/card-keys';
import { cardRuntime } from '../lib/card-runtime';
import { AppError, httpHandler, json, parseBody } from '../lib/http';
import { wiredOnFirstCall } from '../lib/wiring';

interface Deps {
  readonly keys: () => Promise<Pick<CardKeys, 'serialOfLink' | 'sign'>>;
  readonly cards: () => Pick<CardReader, 'bySerial'>;
}

/** What the card page shows of a live card, with the QR's token. */
function viewOf(item: StoredItem, keys: Pick<CardKeys, 'sign'>): CardView | undefined {
  const card = cardOf(item);
  const claims = cardClaimsOf(item);
  if (!card || !claims || !cardIsLive(item, card)) return undefined;
  const district = item.revenue_district ? matchDistrict(item.revenue_district) : undefined;
  const constituency =
    district && item.assembly_constituency ? matchConstituency(district, item.assembly_constituency) : undefined;
  return {
    name: item.name,
    memberNumber: item.member_number ?? '',
    district: district?.id ?? '',
    ...(constituency && { constituency: constituency.no }),
    memberSince: istDay(new Date(card.memberSince)),
    issuedOn: istDay(new Date(card.issuedAt)),
    token: keys.sign(claims),
  };
}

/**
 * The card page asks for its card by the link's secret part (issue 20). The link's MAC
 * is checked before anything is read: without the stage's key no serial can be tried.
 * A wrong link, a replaced or revoked card, or a member no longer approved (or erased)
 * are one answer, 404 CARD_NOT_FOUND.
 */
export function makeHandler({ keys, cards }: Deps) {
  return httpHandler<APIGatewayProxyEventV2>(async (event) => {
    const { link } = parseBody(event, cardRequestSchema);
    const cardKeys = await keys();
    const serial = cardKeys.serialOfLink(link);
    const item = serial && (await cards().bySerial(serial));
    const view = item && viewOf(item, cardKeys);
    if (!view) throw new AppError('CARD_NOT_FOUND');
    return json(200, view);
  });
}

export const handler = wiredOnFirstCall(() => {
  const runtime = cardRuntime();
  return makeHandler({ keys: runtime.keys, cards: runtime.cards });
});
