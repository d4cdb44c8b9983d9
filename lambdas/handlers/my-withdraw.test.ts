import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { OutboundQueueError, type OutboundMessage } from '../adapters/outbound-queue';
import { signVerification } from '../lib/codes';
import type * as MyWithdraw from './my-withdraw';

// The withdrawal's confirmation message (issue 21) with stand-in ports: where the stage
// sends them, the erasure keeps what the confirmation needs (review's `withdraw`) and the
// queue gets the application's id only; a queue that refuses leaves the withdrawal
// standing and the page promising nothing. The whole path is in
// test/integration/my-application.test.ts.
let module: typeof MyWithdraw;

beforeAll(async () => {
  // Local mode: no origin token is asked of the request (lambdas/lib/front-door.ts).
  vi.stubEnv('APP_MODE', 'local');
  vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'SILENT');
  vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'true');
  module = await import('./my-withdraw');
});

const key = 's'.repeat(32);
const now = new Date('2026-12-01T10:00:00.000Z');

function setup(queue?: (messages: readonly OutboundMessage[]) => Promise<void>) {
  const calls = { erased: [] as string[], withdrawn: [] as string[], queued: [] as OutboundMessage[] };
  const handler = module.makeHandler({
    signingKey: async () => key,
    applications: () => ({ byPhone: async () => ({ id: 'app-1' }) as never }),
    review: {
      erase: async (id) => {
        calls.erased.push(id);
        return 'erased';
      },
      withdraw: async (id) => {
        calls.withdrawn.push(id);
        return 'erased';
      },
    },
    clock: () => now,
    ...(queue && {
      confirmations: {
        queue: {
          send: async (messages) => {
            calls.queued.push(...messages);
            await queue(messages);
          },
        },
      },
    }),
  });
  const invoke = async () => {
    const { token } = await signVerification(key, '919876543210', now, 1800, 'v1');
    const event = {
      version: '2.0',
      routeKey: 'POST /api/me/withdraw',
      rawPath: '/api/me/withdraw',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ verificationToken: token }),
      isBase64Encoded: false,
      requestContext: { requestId: 'r1', http: { method: 'POST', sourceIp: '203.0.113.9' } },
    } as unknown as APIGatewayProxyEventV2;
    const answer = (await handler(event, { awsRequestId: 'a1' } as Context)) as { statusCode: number; body: string };
    return { status: answer.statusCode, body: JSON.parse(answer.body) as unknown };
  };
  return { invoke, calls };
}

describe('the withdrawal’s confirmation message', () => {
  it('keeps what the confirmation needs in the erasure and queues the id only', async () => {
    const { invoke, calls } = setup(async () => undefined);
    expect(await invoke()).toEqual({ status: 200, body: { erased: 'app-1', confirmationQueued: true } });
    expect(calls).toEqual({
      erased: [],
      withdrawn: ['app-1'],
      queued: [{ kind: 'withdrawn', applicationId: 'app-1' }],
    });
  });

  it('stands when the queue refuses, and says no message is coming', async () => {
    const { invoke, calls } = setup(async (messages) => {
      throw new OutboundQueueError(messages);
    });
    expect(await invoke()).toEqual({ status: 200, body: { erased: 'app-1', confirmationQueued: false } });
    expect(calls.withdrawn).toEqual(['app-1']);
  });

  it('keeps no number for a confirmation where the stage sends none', async () => {
    const { invoke, calls } = setup();
    expect(await invoke()).toEqual({ status: 200, body: { erased: 'app-1', confirmationQueued: false } });
    expect(calls).toEqual({ erased: ['app-1'], withdrawn: [], queued: [] });
  });
});
