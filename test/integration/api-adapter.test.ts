import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import * as v from 'valibot';
import { healthResponseSchema } from '../../rules/api';
import type { ApiAdapter } from '../../local/api-adapter';
import type * as HealthModule from '../../lambdas/handlers/health';
import { testStaff } from '../support/staff';
import { signIn } from '../support/tokens';
import { startTierApi } from '../support/tier-api';

// The walking skeleton through every layer: HTTP -> adapter -> payload 2.0 event ->
// the handler module the CDK stack deploys -> DynamoDB Local; staff routes through a
// JWT check against cognito-local's keys.
let api: ApiAdapter;
const pool = inject('pool');
const cognitoEndpoint = inject('cognitoEndpoint');

beforeAll(async () => {
  api = await startTierApi();
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
    const handler = makeHandler({
      ...(await healthDeps()),
      applicationsTable: 'no-such-table',
    });
    const result = await handler(
      { requestContext: { requestId: 'r1' }, routeKey: 'GET /api/health' } as never,
      {} as never,
    );
    expect(result.statusCode).toBe(500);
    expect(JSON.parse(result.body ?? '') as unknown).toEqual({
      error: { code: 'INTERNAL', message: expect.any(String) as unknown },
    });
    expect(result.body).not.toMatch(/no-such-table|ResourceNotFound/);
  });
});

/** The health handler's ports against DynamoDB Local, with a configured stage unless overridden. */
async function healthDeps() {
  const { makeDocumentClient } = await import('../../lambdas/lib/dynamo');
  const { localSecrets } = await import('../../local/config');
  return {
    db: makeDocumentClient({
      STAGE: 'test',
      APP_MODE: 'local',
      AWS_REGION: 'ap-south-1',
      DYNAMODB_ENDPOINT: inject('dynamoDbEndpoint'),
    }),
    applicationsTable: inject('tableNames').applications ?? '',
    stage: 'test',
    clock: () => new Date(),
    settingsPlaceholders: [] as string[],
    otpChannels: 'whatsapp-then-sms' as const,
    providerSecrets: () => Promise.resolve({ ...localSecrets, webhookUrl: 'https://hooks.example.org/membership' }),
  };
}

describe('health route: what the stage still lacks, for the operator', () => {
  const call = async (handler: ReturnType<typeof HealthModule.makeHandler>) => {
    const result = await handler(
      { requestContext: { requestId: 'r1' }, routeKey: 'GET /api/health' } as never,
      {} as never,
    );
    expect(result.statusCode).toBe(200);
    return v.parse(healthResponseSchema, JSON.parse(result.body ?? '')).configuration;
  };

  it('says complete when no setting is a placeholder and every secret field is filled', async () => {
    const { makeHandler } = await import('../../lambdas/handlers/health');
    expect(await call(makeHandler(await healthDeps()))).toEqual({ complete: true, missing: [] });
  });

  it("names each placeholder setting and each empty secret field of today's fresh stage, never a value", async () => {
    const { makeHandler } = await import('../../lambdas/handlers/health');
    const { settingsFindings } = await import('../../lib/placeholders');
    const { loadStageConfig } = await import('../../lib/stages');
    const { providerSecretsSchema } = await import('../../lambdas/adapters/secrets');
    const settings = settingsFindings(loadStageConfig('prod')).map((f) => f.id);
    // A fresh stage: the provider secret as the Data stack creates it (all empty, a generated webhook password).
    const fresh = v.parse(providerSecretsSchema, { webhookPassword: 'generated-password-value' });
    const configuration = await call(
      makeHandler({
        ...(await healthDeps()),
        settingsPlaceholders: settings,
        providerSecrets: () => Promise.resolve(fresh),
      }),
    );
    expect(configuration?.complete).toBe(false);
    expect(configuration?.missing).toEqual(
      expect.arrayContaining([
        'alarmEmail',
        'captcha.siteKey',
        'whatsapp.welcomeVideoUrl',
        'messaging.sms.entityId',
        'secret:provider.recaptchaSecret',
        'secret:provider.whatsappToken',
        'secret:provider.whatsappPhoneNumberId',
      ]),
    );
    expect(JSON.stringify(configuration)).not.toContain('generated-password-value');
  });

  it('says the provider secret could not be read, and still answers', async () => {
    const { makeHandler } = await import('../../lambdas/handlers/health');
    const configuration = await call(
      makeHandler({ ...(await healthDeps()), providerSecrets: () => Promise.reject(new Error('AccessDenied')) }),
    );
    expect(configuration).toEqual({ complete: false, missing: ['secret:provider'] });
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

// Every staff route × every kind of caller: test/integration/authorization-matrix.test.ts.

describe('who is signed in', () => {
  it.each([
    ['admin', testStaff.admin],
    ['viewer', testStaff.viewer],
  ] as const)('reports the %s role from the token groups, every district (none named)', async (role, user) => {
    const token = await signIn(cognitoEndpoint, pool.clientId, user);
    const response = await get('/api/admin/me', token);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ email: user.email, groups: [role], role, districts: [] });
  });
});
