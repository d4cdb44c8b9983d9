import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeApplicationRepository } from '../../lambdas/adapters/applications';
import { CAMPAIGN_AUDIT_PK } from '../../lambdas/adapters/campaign-audit';
import { makeCampaignStore, referralCodeKey } from '../../lambdas/adapters/campaigns';
import { applicationWebhookPayload } from '../../lambdas/adapters/webhook';
import { makeHandler as makeCampaignsHandler, randomCampaignCode } from '../../lambdas/handlers/campaigns';
import { PutCommand, QueryCommand } from '../../lambdas/lib/db';
import type { ApiAdapter } from '../../local/api-adapter';
import { localDb } from '../../local/dynamodb';
import { type Campaign, CODE_ALPHABET } from '../../rules/campaigns';
import { applicationExportColumns, toCsv } from '../../rules/csv';
import { istDay } from '../../rules/ist';
import type { ListResponse } from '../../rules/staff-api';
import { testSubmit } from '../support/submit';
import { testStaff } from '../support/staff';
import { startTierApi } from '../support/tier-api';
import { signIn } from '../support/tokens';

// Issue 19 against DynamoDB Local and cognito-local: the campaign routes through the local
// adapter with real tokens (scope by role and district), and the submit handler, wired on
// the tier's tables, freezing where an applicant came from (a live code only, UTM values,
// a known referral code), never refusing an application for it; the webhook body and the
// export carry the source.
const names = inject('tableNames');
const db = localDb(inject('dynamoDbEndpoint'));
const pool = inject('pool');
const cognito = inject('cognitoEndpoint');
const store = makeCampaignStore(db, names.campaigns!);
const applications = makeApplicationRepository(db, names.applications!);
let api: ApiAdapter;
const tokens: Record<'admin' | 'viewer' | 'coordinator' | 'viewerOfChennai', string> = {
  admin: '',
  viewer: '',
  coordinator: '',
  viewerOfChennai: '',
};

beforeAll(async () => {
  api = await startTierApi();
  await Promise.all(
    (Object.keys(tokens) as (keyof typeof tokens)[]).map(async (who) => {
      tokens[who] = await signIn(cognito, pool.clientId, testStaff[who]);
    }),
  );
});
afterAll(() => api.close());

async function call<T = Record<string, unknown>>(token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as T };
}

const input = (overrides: Record<string, unknown> = {}) => ({
  name_en: 'Freshers week',
  name_ta: 'புதுமுக வாரம்',
  kind: 'college',
  district: 'Chennai',
  starts_on: '2026-01-01',
  ends_on: '2099-12-31',
  ...overrides,
});
const codePattern = new RegExp(`^[${CODE_ALPHABET}]{6}$`);

describe('campaign routes', () => {
  it('lets an admin create a statewide campaign with a fresh code, listed newest first', async () => {
    const first = await call<Campaign>(tokens.admin, 'POST', '/api/admin/campaigns', input({ district: undefined }));
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ status: 'active', kind: 'college', name_en: 'Freshers week' });
    expect(first.body.code).toMatch(codePattern);
    expect(first.body.district).toBeUndefined();
    const second = await call<Campaign>(tokens.admin, 'POST', '/api/admin/campaigns', input());
    expect(second.body.code).not.toBe(first.body.code);
    const list = await call<{ items: Campaign[] }>(tokens.admin, 'GET', '/api/admin/campaigns');
    expect(list.status).toBe(200);
    const ids = list.body.items.map((c) => c.id);
    expect(ids.indexOf(second.body.id)).toBeLessThan(ids.indexOf(first.body.id));
    expect(ids.indexOf(second.body.id)).toBeGreaterThanOrEqual(0);
    // Viewers see every campaign (the unscoped viewer) and change none.
    const seen = await call<{ items: Campaign[] }>(tokens.viewer, 'GET', '/api/admin/campaigns');
    expect(seen.body.items.map((c) => c.id)).toEqual(expect.arrayContaining([first.body.id, second.body.id]));
    expect(await call(tokens.viewer, 'POST', '/api/admin/campaigns', input())).toMatchObject({
      status: 403,
      body: { error: { code: 'FORBIDDEN' } },
    });
    expect(
      await call(tokens.viewer, 'PATCH', `/api/admin/campaigns/${first.body.id}`, { status: 'paused' }),
    ).toMatchObject({ status: 403 });
    // The audit trail has the creation.
    const audit = await db.send(
      new QueryCommand({
        TableName: names.audit!,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': CAMPAIGN_AUDIT_PK },
      }),
    );
    expect(audit.Items?.map((i) => String(i.campaign_id))).toContain(first.body.id);
  });

  it('scopes a coordinator to their districts: create, list and pause', async () => {
    const statewide = await call<Campaign>(
      tokens.admin,
      'POST',
      '/api/admin/campaigns',
      input({ district: undefined }),
    );
    const madurai = await call<Campaign>(tokens.admin, 'POST', '/api/admin/campaigns', input({ district: 'Madurai' }));
    const mine = await call<Campaign>(tokens.coordinator, 'POST', '/api/admin/campaigns', input());
    expect(mine.status).toBe(201);
    expect(mine.body.district).toBe('Chennai');
    expect(
      await call(tokens.coordinator, 'POST', '/api/admin/campaigns', input({ district: 'Madurai' })),
    ).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
    expect(
      await call(tokens.coordinator, 'POST', '/api/admin/campaigns', input({ district: undefined })),
    ).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_FAILED', fields: { district: 'REQUIRED' } } } });

    const listed = (await call<{ items: Campaign[] }>(tokens.coordinator, 'GET', '/api/admin/campaigns')).body.items;
    expect(listed.map((c) => c.id)).toContain(mine.body.id);
    expect(listed.map((c) => c.id)).not.toContain(madurai.body.id);
    expect(listed.map((c) => c.id)).not.toContain(statewide.body.id);
    expect(listed.every((c) => c.district === 'Chennai')).toBe(true);
    // A viewer of Chennai is scoped as everywhere else.
    const chennaiView = (await call<{ items: Campaign[] }>(tokens.viewerOfChennai, 'GET', '/api/admin/campaigns')).body
      .items;
    expect(chennaiView.every((c) => c.district === 'Chennai')).toBe(true);

    const paused = await call<Campaign>(tokens.coordinator, 'PATCH', `/api/admin/campaigns/${mine.body.id}`, {
      status: 'paused',
    });
    expect(paused).toMatchObject({ status: 200, body: { id: mine.body.id, status: 'paused' } });
    expect((await store.get(mine.body.id))?.status).toBe('paused');
    // Another district's campaign and a statewide one are not found for them.
    for (const other of [madurai.body.id, statewide.body.id]) {
      expect(
        await call(tokens.coordinator, 'PATCH', `/api/admin/campaigns/${other}`, { status: 'paused' }),
      ).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } });
    }
    const resumed = await call<Campaign>(tokens.admin, 'PATCH', `/api/admin/campaigns/${mine.body.id}`, {
      status: 'active',
    });
    expect(resumed.body.status).toBe('active');
  });

  it('answers bad input with the field codes, never a 500', async () => {
    const cases: [unknown, Record<string, string>][] = [
      [input({ ends_on: '2025-01-01' }), { ends_on: 'INVALID_RANGE' }],
      [input({ name_en: '' }), { name_en: 'REQUIRED' }],
      [input({ kind: 'rally' }), { kind: 'REQUIRED' }],
      [input({ district: 'Atlantis' }), { district: 'INVALID' }],
      [input({ constituency: 'Nowhere' }), { constituency: 'INVALID' }],
      [input({ starts_on: 'tomorrow' }), { starts_on: 'INVALID_DATE' }],
    ];
    for (const [body, fields] of cases) {
      expect(await call(tokens.admin, 'POST', '/api/admin/campaigns', body)).toMatchObject({
        status: 400,
        body: { error: { code: 'VALIDATION_FAILED', fields } },
      });
    }
    for (const body of [{ status: 'stopped' }, {}, [], 'x']) {
      const response = await call(tokens.admin, 'PATCH', `/api/admin/campaigns/${randomUUID()}`, body);
      expect(response.status).toBe(400);
    }
    expect(
      await call(tokens.admin, 'PATCH', `/api/admin/campaigns/${randomUUID()}`, { status: 'paused' }),
    ).toMatchObject({ status: 404 });
  });

  it('tries another code when the one drawn is taken', async () => {
    const taken = await call<Campaign>(tokens.admin, 'POST', '/api/admin/campaigns', input());
    const codes = [taken.body.code, randomCampaignCode()];
    const handler = makeCampaignsHandler({
      campaigns: store,
      audit: { record: () => Promise.resolve() },
      clock: () => new Date(),
      newCode: () => codes.shift()!,
    });
    const response = (await handler(
      {
        routeKey: 'POST /api/admin/campaigns',
        body: JSON.stringify(input()),
        headers: {},
        requestContext: {
          requestId: 'collision',
          authorizer: { jwt: { claims: { sub: 'a', 'cognito:groups': '[admin]' }, scopes: [] } },
        },
      } as never,
      {} as never,
    )) as { statusCode: number; body: string };
    expect(response.statusCode).toBe(201);
    expect((JSON.parse(response.body) as Campaign).code).not.toBe(taken.body.code);
  });
});

// ---------------------------------------------------------------------------
// Attribution at submit.

const { submitWith } = testSubmit({ applications, campaigns: store, otpTable: names.otps! });

async function campaignOf(overrides: Partial<Campaign>): Promise<Campaign> {
  const campaign: Campaign = {
    id: randomUUID(),
    code: randomCampaignCode(),
    name_en: 'Test',
    name_ta: 'சோதனை',
    kind: 'event',
    starts_on: '2026-01-01',
    ends_on: '2099-12-31',
    status: 'active',
    created_at: new Date().toISOString(),
    ...overrides,
  };
  expect(await store.insert(campaign)).toBe('created');
  return campaign;
}

const stored = async (id: string) => (await applications.get(id, { consistent: true })) as Record<string, unknown>;
const sourceFields = ['campaign_id', 'campaign_code', 'utm_source', 'utm_medium', 'utm_campaign', 'referrer_id'];
const sourceOf = (item: Record<string, unknown>) =>
  Object.fromEntries(sourceFields.filter((f) => item[f] !== undefined).map((f) => [f, item[f]]));

describe('attribution at submit', () => {
  it('freezes a live campaign and the UTM values on the application; the webhook and the export carry them', async () => {
    const live = await campaignOf({});
    const result = await submitWith({
      campaign: live.code.toUpperCase(),
      utm_source: 'instagram',
      utm_medium: 'story',
    });
    expect(result.statusCode, result.body).toBe(201);
    const item = await stored(result.id!);
    expect(sourceOf(item)).toEqual({
      campaign_id: live.id,
      campaign_code: live.code,
      utm_source: 'instagram',
      utm_medium: 'story',
    });
    expect(applicationWebhookPayload(item)).toMatchObject({
      application_id: result.id,
      campaign_code: live.code,
      campaign_id: live.id,
      utm_source: 'instagram',
      utm_medium: 'story',
      utm_campaign: null,
      referrer_id: null,
    });
    // The staff list (what the export pages read) and the CSV built from it.
    const list = await call<ListResponse>(tokens.admin, 'POST', '/api/admin/applications/search', {
      filters: { district: 'Madurai', from: istDay(new Date()), to: istDay(new Date()) },
      pageSize: 100,
    });
    const row = list.body.items.find((r) => r.id === result.id);
    expect(row).toMatchObject({ campaign_code: live.code, utm_source: 'instagram' });
    const csv: Record<string, string>[] = parse(toCsv([row!], applicationExportColumns), { bom: true, columns: true });
    expect(csv[0]).toMatchObject({
      campaign_code: live.code,
      campaign_id: live.id,
      utm_source: 'instagram',
      utm_medium: 'story',
      utm_campaign: '',
      referrer_id: '',
    });
    // The detail shows it to staff.
    const detail = await call<{ application: Record<string, unknown> }>(
      tokens.admin,
      'GET',
      `/api/admin/applications/${result.id}`,
    );
    expect(detail.body.application).toMatchObject({ campaign_code: live.code, utm_source: 'instagram' });
  });

  it('takes a paused, ended, future or unknown code and garbage without a word: the application carries no campaign', async () => {
    const today = istDay(new Date());
    const paused = await campaignOf({ status: 'paused' });
    const ended = await campaignOf({ ends_on: '2026-01-02' });
    const future = await campaignOf({ starts_on: '2099-01-01' });
    expect(ended.ends_on < today).toBe(true);
    for (const attribution of [
      { campaign: paused.code, utm_source: 'instagram' },
      { campaign: ended.code, utm_source: 'instagram' },
      { campaign: future.code, utm_source: 'instagram' },
      { campaign: randomCampaignCode(), utm_source: 'instagram' },
      { campaign: '"; DROP TABLE', utm_source: 'instagram', utm_medium: { $ne: 1 } },
    ]) {
      const result = await submitWith(attribution);
      expect(result.statusCode, result.body).toBe(201);
      expect(sourceOf(await stored(result.id!))).toEqual({ utm_source: 'instagram' });
    }
  });

  it('keeps a known referral code as the referrer and drops an unknown one', async () => {
    const referrer = await submitWith(undefined);
    const code = randomCampaignCode() + randomCampaignCode();
    await db.send(
      new PutCommand({ TableName: names.campaigns!, Item: { pk: referralCodeKey(code), application_id: referrer.id } }),
    );
    const referred = await submitWith({ referral: code });
    expect(sourceOf(await stored(referred.id!))).toEqual({ referrer_id: referrer.id });
    const unknown = await submitWith({ referral: randomCampaignCode() + randomCampaignCode() });
    expect(unknown.statusCode).toBe(201);
    expect(sourceOf(await stored(unknown.id!))).toEqual({});
  });

  it('never answers 5xx whatever the attribution holds', async () => {
    const live = await campaignOf({});
    const text = fc.oneof(fc.string({ maxLength: 120 }), fc.string({ unit: 'binary', maxLength: 120 }));
    const attribution = fc.oneof(
      fc.anything({ maxDepth: 2, maxKeys: 5 }),
      fc.record(
        {
          campaign: fc.oneof(
            text,
            fc.constant(live.code),
            fc.constant(` ${live.code.toUpperCase()} `),
            fc.anything({ maxDepth: 2, maxKeys: 5 }),
          ),
          referral: fc.oneof(
            text,
            fc.stringMatching(new RegExp(`^[${CODE_ALPHABET}]{12}$`)),
            fc.anything({ maxDepth: 2, maxKeys: 5 }),
          ),
          utm_source: fc.oneof(text, fc.anything({ maxDepth: 2, maxKeys: 5 })),
          utm_medium: text,
          utm_campaign: fc.oneof(text, fc.constant('x'.repeat(101))),
        },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(attribution, async (value) => {
        const result = await submitWith(value);
        expect(result.statusCode, result.body).toBe(201);
      }),
      { numRuns: 150, seed: 19_2026 },
    );
  }, 120_000);
});
