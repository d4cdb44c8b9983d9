import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { httpHandler, json } from './http';
import { viewerAddress } from './viewer-address';

const current = 'c'.repeat(40);
const previous = 'p'.repeat(40);
const event = (headers: Record<string, string>) =>
  ({
    headers,
    routeKey: 'GET /api/health',
    requestContext: { requestId: 'r', http: { sourceIp: '130.176.0.1' } },
  }) as unknown as APIGatewayProxyEventV2;

function handler(tokens = { current, previous }) {
  const inner = vi.fn((e: APIGatewayProxyEventV2) =>
    Promise.resolve(json(200, { viewer: viewerAddress(e, { mode: 'aws' }) })),
  );
  const wrapped = httpHandler(inner, { originTokens: () => Promise.resolve(tokens) });
  return { inner, call: (headers: Record<string, string>) => wrapped(event(headers), {} as Context) };
}

describe('the front door (AWS mode)', () => {
  it('refuses a request without the origin token before the handler runs', async () => {
    const { inner, call } = handler();
    for (const headers of [{}, { 'x-origin-verify': 'wrong' }, { 'x-origin-verify': '' }] as Record<string, string>[]) {
      const answer = await call({ ...headers, 'cloudfront-viewer-address': '198.51.100.10:1' });
      expect(answer.statusCode).toBe(403);
      expect(JSON.parse(answer.body!)).toMatchObject({ error: { code: 'FORBIDDEN' } });
    }
    expect(inner).not.toHaveBeenCalled();
  });

  it('accepts the current and the previous token during a rotation, and then trusts the viewer address', async () => {
    const { call } = handler();
    for (const token of [current, previous]) {
      const answer = await call({ 'x-origin-verify': token, 'cloudfront-viewer-address': '198.51.100.10:1' });
      expect(answer.statusCode).toBe(200);
      expect(JSON.parse(answer.body!)).toEqual({ viewer: '198.51.100.10' });
    }
  });

  it('does not take an empty previous token as a match for an empty header', async () => {
    const { call } = handler({ current, previous: '' });
    expect((await call({ 'x-origin-verify': '' })).statusCode).toBe(403);
  });
});
