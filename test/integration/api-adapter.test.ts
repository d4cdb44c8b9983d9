import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { routes } from '../../lib/api-routes';
import * as v from 'valibot';
import { healthResponseSchema } from '../../rules/api';
import { startApiAdapter, type ApiAdapter } from '../../local/api-adapter';
import { useLocalFunctionEnv } from '../support/env';
import { testStaff } from '../support/staff';
import { signIn, signWithForeignKey, signWithLocalPoolKey } from '../support/tokens';

// The walking skeleton through every layer: HTTP -> adapter -> payload 2.0 event ->
// the handler module the CDK stack deploys -> DynamoDB Local; staff routes through a
// JWT check against cognito-local's keys.
let api: ApiAdapter;
const pool = inject('pool');
const cognitoEndpoint = inject('cognitoEndpoint');

beforeAll(async () => {
  useLocalFunctionEnv();
  api = await startApiAdapter({
    port: 0,
    routes,
    loadHandler: async (name) => ((await import(`../../lambdas/handlers/${name}.ts`)) as { handler: never }).handler,
    jwt: { issuer: pool.issuer, audience: [pool.clientId] },
  });
});
afterAll(() => api.close());

const get = (path: string, token?: string) =>
  fetch(`${api.url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('health route', () => {
  it('reads DynamoDB Local through the adapter and the real handler', async () => {
    const response = await get('/api/health');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = v.parse(healthResponseSchema, await response.json());
    expect(body).toMatchObject({ status: 'ok', stage: 'test', database: 'ok' });
  });

  it('answers the error shape, not a stack trace, when the table is missing', async () => {
    const { makeHandler } = await import('../../lambdas/handlers/health');
    const { makeDocumentClient } = await import('../../lambdas/lib/dynamo');
    const handler = makeHandler({
      db: makeDocumentClient({ STAGE: 'test', APP_MODE: 'local', AWS_REGION: 'ap-south-1', DYNAMODB_ENDPOINT: inject('dynamoDbEndpoint') }),
      applicationsTable: 'no-such-table',
      stage: 'test',
      clock: () => new Date(),
    });
    const result = await handler({ requestContext: { requestId: 'r1' }, routeKey: 'GET /api/health' } as never, {} as never);
    expect(result.statusCode).toBe(500);
    expect(JSON.parse(result.body ?? '') as unknown).toEqual({ error: { code: 'INTERNAL', message: expect.any(String) as unknown } });
    expect(result.body).not.toMatch(/no-such-table|ResourceNotFound/);
  });
});

describe('unknown routes', () => {
  it('answers 404 as API Gateway does', async () => {
    const response = await get('/api/nothing-here');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'Not Found' });
  });
});

describe('path parameters', () => {
  it('answers 400 to a malformed percent-encoding before any function runs, as API Gateway does', async () => {
    const token = await signIn(cognitoEndpoint, pool.clientId, testStaff.admin);
    const response = await get('/api/admin/applications/%ZZ', token);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: 'Bad Request' });
    // A well-formed id that names no application reaches the handler: its own 404.
    const unknown = await get('/api/admin/applications/%41bc', token);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });
});

// Table-driven over every staff route, so that a new route cannot skip the authorizer.
const staffRoutes = routes.filter((r) => r.access === 'staff');
const pathOf = (path: string) => path.replace(/\{(\w+)\+?\}/g, 'x');

describe.each(staffRoutes)('staff route $method $path', (route) => {
  const call = (token?: string) =>
    fetch(`${api.url}${pathOf(route.path)}`, {
      method: route.method,
      headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      ...(route.method !== 'GET' && { body: '{}' }),
    });
  const now = () => Math.floor(Date.now() / 1000);
  const claims = () => ({
    sub: 'forged',
    'cognito:groups': ['admin'],
    email: 'x@example.com',
    token_use: 'id',
    iss: pool.issuer,
    aud: pool.clientId,
    iat: now(),
    exp: now() + 600,
  });

  it('refuses a request without a token (401)', async () => {
    expect((await call()).status).toBe(401);
  });
  it('refuses a token signed by another key (401)', async () => {
    expect((await call(await signWithForeignKey(claims()))).status).toBe(401);
  });
  it('refuses an expired token (401)', async () => {
    expect((await call(await signWithLocalPoolKey({ ...claims(), iat: now() - 7200, exp: now() - 3600 }))).status).toBe(401);
  });
  it('refuses a token from another pool or another client (401)', async () => {
    expect((await call(await signWithLocalPoolKey({ ...claims(), iss: `${cognitoEndpoint}/local_other` }))).status).toBe(401);
    expect((await call(await signWithLocalPoolKey({ ...claims(), aud: 'another-client' }))).status).toBe(401);
  });
  it.runIf(route.adminOnly)('refuses a viewer (403): only admins change data', async () => {
    const token = await signIn(cognitoEndpoint, pool.clientId, testStaff.viewer);
    const response = await call(token);
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
  });
  it('refuses a signed-in user in no staff group (403)', async () => {
    const token = await signIn(cognitoEndpoint, pool.clientId, testStaff.nobody);
    const response = await call(token);
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
  });
});

describe('who is signed in', () => {
  it.each([
    ['admin', testStaff.admin],
    ['viewer', testStaff.viewer],
  ] as const)('reports the %s role from the token groups', async (role, user) => {
    const token = await signIn(cognitoEndpoint, pool.clientId, user);
    const response = await get('/api/admin/me', token);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ email: user.email, groups: [role], role });
  });
});
