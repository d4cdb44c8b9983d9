import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { ApplicationRepository } from '../../lambdas/adapters/applications';
import type { CampaignLookup } from '../../lambdas/adapters/campaigns';
import { makeHandler as makeSubmitHandler } from '../../lambdas/handlers/applications-submit';
import { signVerification } from '../../lambdas/lib/codes';
import { useLocalFunctionEnv } from './env';
import { submitBody, uniqueMobile } from './public-flow';

/** A submit's answer: the status, the body, and the application's id when one was made. */
export interface Submitted {
  readonly statusCode: number;
  readonly body: string;
  readonly id?: string;
}

/**
 * The submit handler wired on a test's tables, called as API Gateway would with a fresh
 * number's verification token: `attribution` is sent as the public page sends it,
 * `overrides` change the application's fields. The messages it queues land in `sent`.
 */
export function testSubmit(deps: {
  readonly applications: ApplicationRepository;
  readonly campaigns: CampaignLookup;
  readonly otpTable: string;
}) {
  const signingKey = 'submit-test-signing-key-0123456789abcdef';
  const sent: unknown[] = [];
  // Local mode before the handler is made: it reads the mode then (no origin token locally).
  // Set already (a tier API pointed at its own tables), it is left as it is.
  if (process.env.APP_MODE !== 'local') useLocalFunctionEnv();
  const submit = makeSubmitHandler({
    applications: deps.applications,
    queue: { send: (messages) => Promise.resolve(void sent.push(...messages)) },
    signingKey: () => Promise.resolve(signingKey),
    otpTable: deps.otpTable,
    clock: () => new Date(),
    newId: randomUUID,
    campaigns: deps.campaigns,
  });
  const submitWith = async (attribution: unknown, overrides: Record<string, unknown> = {}): Promise<Submitted> => {
    const mobile = uniqueMobile();
    const { token } = await signVerification(signingKey, `91${mobile}`, new Date(), 1800, randomUUID());
    const event = {
      routeKey: 'POST /api/applications',
      rawPath: '/api/applications',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...submitBody(token, overrides), attribution }),
      isBase64Encoded: false,
      requestContext: { requestId: randomUUID(), http: { method: 'POST', sourceIp: '203.0.113.9' } },
    } as unknown as APIGatewayProxyEventV2;
    const response = (await submit(event, {} as never)) as { statusCode: number; body: string };
    const parsed = JSON.parse(response.body) as { id?: string };
    return { statusCode: response.statusCode, body: response.body, ...(parsed.id && { id: parsed.id }) };
  };
  return { submitWith, sent };
}
