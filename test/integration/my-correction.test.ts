import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationKey } from '../../lambdas/adapters/application-items';
import { DeleteCommand, GetCommand, QueryCommand } from '../../lambdas/lib/db';
import { localDb } from '../../local/dynamodb';
import { startLocalStack, type LocalStack } from '../../local/stack';
import type { ReportSummary } from '../../rules/report';
import type { ApplicationDetail } from '../../rules/staff-api';
import { goodCaptcha, post, submitBody, uniqueMobile } from '../support/public-flow';
import { otpFor } from '../support/staff-data';
import { testStackConfig } from '../support/test-stack';
import { signIn } from '../support/tokens';

// Issue 21's correction on the whole local stack: after a real code, the applicant
// corrects the fields they may, each checked as the form checks it; the application
// changes, the audit names the fields (never a value), the rollups move the application to
// its new district, the search finds the new name, staff see it; refused input changes
// nothing; a correction racing a status change leaves the index keys true to both.

let stack: LocalStack;
let admin = '';

beforeAll(async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';
  stack = await startLocalStack(testStackConfig({ LOCAL_PERSISTENCE: 'memory', LOCAL_WEB: 'false' }));
  admin = await signIn(stack.cognitoEndpoint, stack.pool.clientId, stack.admin);
}, 90_000);
afterAll(async () => {
  await stack?.stop();
});

const db = () => localDb(stack.dynamoDbEndpoint);

async function verify(mobile: string): Promise<string> {
  await db().send(
    new DeleteCommand({ TableName: stack.tableNames.rateLimits, Key: { pk: `cooldown#otp#91${mobile}` } }),
  );
  expect((await post(stack.apiUrl, '/api/otp/request', { mobile, captchaToken: goodCaptcha })).status).toBe(200);
  const verified = await post(stack.apiUrl, '/api/otp/verify', { mobile, code: await otpFor(stack.apiUrl, mobile) });
  const error = verified.body.error as { verificationToken?: string } | undefined;
  const token: unknown = verified.body.verificationToken ?? error?.verificationToken;
  if (typeof token !== 'string') throw new Error(`no verification: ${JSON.stringify(verified.body)}`);
  return token;
}

async function apply(): Promise<{ mobile: string; id: string; token: string }> {
  const mobile = uniqueMobile();
  const token = await verify(mobile);
  const submitted = await post(stack.apiUrl, '/api/applications', submitBody(token));
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
  // A new code for the registered number: the page after "already registered".
  return { mobile, id: String(submitted.body.id), token: await verify(mobile) };
}

async function staff<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${stack.apiUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as T };
}

const correct = (verificationToken: string, changes: unknown) =>
  post(stack.apiUrl, '/api/me/correct', { verificationToken, changes });
const stored = async (id: string) =>
  (await db().send(new GetCommand({ TableName: stack.tableNames.applications, Key: { pk: applicationKey(id) } })))
    .Item!;
const trailOf = async (id: string) =>
  (
    await db().send(
      new QueryCommand({
        TableName: stack.tableNames.audit,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': applicationKey(id) },
      }),
    )
  ).Items ?? [];
const districtCount = async (district: string) => {
  const report = await staff<ReportSummary>('GET', `/api/admin/reports/summary?district=${district}`);
  return report.body.total;
};

describe('correcting my application', () => {
  it('writes only the changed fields, audits their names, and reaches the rollups, the search and the staff area', async () => {
    const [madurai, salem] = [await districtCount('Madurai'), await districtCount('Salem')];
    const { id, token } = await apply();
    // The stream counts the new application in Madurai before it is moved.
    await expect.poll(() => districtCount('Madurai')).toBe(madurai + 1);
    const answer = await correct(token, {
      name: 'Kavya Selvam',
      email: '',
      alternate_phone_number: '9000000002',
      revenue_district: 'Salem',
      assembly_constituency: 'Attur',
      education: 'Arts & Science',
      occupation: 'Self Employed',
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toEqual({
      changed: [
        'name',
        'email',
        'alternate_phone_number',
        'revenue_district',
        'assembly_constituency',
        'education',
        'occupation',
      ],
    });
    const item = await stored(id);
    expect(item).toMatchObject({
      name: 'Kavya Selvam',
      alternate_phone_number: '9000000002',
      revenue_district: 'Salem',
      assembly_constituency: 'Attur',
      district_status: 'Salem#pending',
      education: 'Arts & Science',
      occupation: 'Self Employed',
    });
    expect(item.email).toBeUndefined();
    // The audit names the fields and the applicant, never an old or a new value.
    const corrections = (await trailOf(id)).filter((entry) => entry.action === 'correction');
    expect(corrections).toHaveLength(1);
    expect(corrections[0]).toMatchObject({ action: 'correction', by: 'applicant', by_sub: 'applicant' });
    expect(corrections[0]!.fields).toEqual(answer.body.changed);
    expect(JSON.stringify(corrections)).not.toMatch(/Kavya|Madurai|Salem|kavya@|9000000002/);

    const detail = await staff<ApplicationDetail>('GET', `/api/admin/applications/${id}`);
    expect(detail.body.application).toMatchObject({ name: 'Kavya Selvam', revenue_district: 'Salem' });
    expect(detail.body.audit[0]).toMatchObject({ action: 'correction', by: 'applicant' });
    // The stream moves it between the districts' rollups, and the search index finds the new name only.
    await expect.poll(() => districtCount('Salem')).toBe(salem + 1);
    await expect.poll(() => districtCount('Madurai')).toBe(madurai);
    const search = (q: string) =>
      staff<{ items: { id: string }[] }>('POST', '/api/admin/applications/search', { filters: { q }, pageSize: 100 });
    await expect.poll(async () => (await search('Selvam')).body.items.map((row) => row.id)).toContain(id);

    // Nothing to change: answered, and nothing written.
    const again = await correct(token, { name: 'Kavya Selvam' });
    expect(again.body).toEqual({ changed: [] });
    expect((await trailOf(id)).filter((entry) => entry.action === 'correction')).toHaveLength(1);
  });

  it('refuses what the form refuses, a field not to be corrected, and a stranger, with codes, changing nothing', async () => {
    const { mobile, id, token } = await apply();
    const before = await stored(id);
    const refusals: [unknown, Record<string, string>][] = [
      [{ date_of_birth: '1990-01-01' }, { date_of_birth: 'NOT_CORRECTABLE' }],
      [{ phone_number: '9123456789' }, { phone_number: 'NOT_CORRECTABLE' }],
      [{ email: 'not-an-email' }, { email: 'INVALID_EMAIL' }],
      [{ name: '' }, { name: 'REQUIRED' }],
      [{ name: 'x'.repeat(101) }, { name: 'TOO_LONG' }],
      [{ name: 'Kavya\u202e' }, { name: 'INVALID_CHARACTERS' }],
      [{ revenue_district: 'Atlantis', assembly_constituency: 'Attur' }, { revenue_district: 'REQUIRED' }],
      // A constituency of another district, alone or with its wrong district.
      [{ assembly_constituency: 'Attur' }, { assembly_constituency: 'REQUIRED' }],
      [{ revenue_district: 'Chennai' }, { assembly_constituency: 'REQUIRED' }],
      [{ alternate_phone_number: mobile }, { alternate_phone_number: 'ALTERNATE_PHONE_SAME' }],
      [{ alternate_phone_number: '12345' }, { alternate_phone_number: 'ALTERNATE_PHONE_DIGITS' }],
      [{ education: 'Astrology' }, { education: 'REQUIRED' }],
    ];
    for (const [changes, fields] of refusals) {
      const answer = await correct(token, changes);
      expect({ status: answer.status, code: answer.body.error?.code }, JSON.stringify(changes)).toEqual({
        status: 400,
        code: 'VALIDATION_FAILED',
      });
      expect(answer.body.error?.fields, JSON.stringify(changes)).toMatchObject(fields);
    }
    for (const changes of [null, 'name', [], 42]) {
      expect((await correct(token, changes)).status, JSON.stringify(changes)).toBe(400);
    }
    expect((await post(stack.apiUrl, '/api/me/correct', { verificationToken: token })).status).toBe(400);
    expect((await correct(`${token}x`, { name: 'Someone' })).status).toBe(401);
    const stranger = await correct(await verify(uniqueMobile()), { name: 'Someone' });
    expect({ status: stranger.status, code: stranger.body.error?.code }).toEqual({
      status: 404,
      code: 'NO_APPLICATION',
    });
    expect(await stored(id)).toEqual(before);
    expect((await trailOf(id)).filter((entry) => entry.action === 'correction')).toEqual([]);
  });

  it('keeps the index keys true when corrections race a status change', async () => {
    const { id, token } = await apply();
    const districts = [
      ['Salem', 'Attur'],
      ['Chennai', 'Perambur'],
      ['Madurai', 'Melur'],
      ['Salem', 'Yercaud'],
    ] as const;
    const [status, ...answers] = await Promise.all([
      staff('POST', '/api/admin/applications/status', { ids: [id], status: 'under_review' }),
      ...districts.map(([revenue_district, assembly_constituency]) =>
        correct(token, { revenue_district, assembly_constituency }),
      ),
    ]);
    expect(status.status).toBe(200);
    // Each correction was made, or answered busy having written nothing: never a 500.
    for (const answer of answers) expect([200, 409], JSON.stringify(answer.body)).toContain(answer.status);
    const item = await stored(id);
    expect(item.application_status).toBe('under_review');
    expect(item.district_status).toBe(`${String(item.revenue_district)}#under_review`);
    const made = answers.filter((answer) => answer.status === 200 && (answer.body.changed as unknown[]).length > 0);
    expect((await trailOf(id)).filter((entry) => entry.action === 'correction')).toHaveLength(made.length);
  });
});
