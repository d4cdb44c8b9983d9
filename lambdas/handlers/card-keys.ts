import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { CardKeysResponse } from '../../rules/member-card';
import type { CardKeys } from '../lib/card-keys';
import { cardRuntime } from '../lib/card-runtime';
import { httpHandler, json } from '../lib/http';
import { wiredOnFirstCall } from '../lib/wiring';

interface Deps {
  readonly keys: () => Promise<Pick<CardKeys, 'published'>>;
}

/** An hour: a rotation publishes the new key beside the old one for longer than that (docs/RUNBOOK.md). */
const CACHE_SECONDS = 3600;

/**
 * The stage's public card keys (issue 20), current first and, during a rotation, the one
 * before: the verification page checks a QR's signature offline against them. Public
 * data, the same for everyone: cacheable by the browser and CloudFront.
 */
export function makeHandler({ keys }: Deps) {
  return httpHandler<APIGatewayProxyEventV2>(async () => {
    const body: CardKeysResponse = { keys: [...(await keys()).published] };
    const response = json(200, body);
    return { ...response, headers: { ...response.headers, 'cache-control': `public, max-age=${CACHE_SECONDS}` } };
  });
}

export const handler = wiredOnFirstCall(() => makeHandler({ keys: cardRuntime().keys }));
