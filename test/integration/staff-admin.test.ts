import { QueryCommand } from '../../lambdas/lib/db';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { STAFF_AUDIT_PK } from '../../lambdas/adapters/staff-audit';
import { makeDocumentClient } from '../../lambdas/lib/dynamo';
import type { ApiAdapter } from '../../local/api-adapter';
import type { StaffInviteResponse, StaffListResponse, StaffMember } from '../../rules/staff-admin';
import { testStaff } from '../support/staff';
import { startTierApi } from '../support/tier-api';
import { signIn } from '../support/tokens';

// The Staff page's routes (lambdas/handlers/staff-admin.ts) through the local adapter,
// against cognito-local: an admin invites, assigns, disables, enables and resets; anyone
// else is refused; a bad body is a 400 with its field's code; every change is in the
// audit trail by the member's sub, never their email.
let api: ApiAdapter;
let adminToken: string;
let viewerToken: string;
const pool = inject('pool');
const endpoint = inject('cognitoEndpoint');
const db = makeDocumentClient({
  STAGE: 'test',
  APP_MODE: 'local',
  AWS_REGION: 'ap-south-1',
  DYNAMODB_ENDPOINT: inject('dynamoDbEndpoint'),
});
const auditTable = inject('tableNames').audit!;

beforeAll(async () => {
  api = await startTierApi();
  [adminToken, viewerToken] = await Promise.all([
    signIn(endpoint, pool.clientId, testStaff.admin),
    signIn(endpoint, pool.clientId, testStaff.viewer),
  ]);
});
afterAll(() => api.close());

async function call(token: string, method: 'GET' | 'POST', path: string, body?: unknown) {
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const subOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { sub: string }).sub;

async function listed(email: string): Promise<StaffMember | undefined> {
  const { body } = await call(adminToken, 'GET', '/api/admin/staff');
  return (body as unknown as StaffListResponse).items.find((m) => m.email === email);
}

describe('staff routes', () => {
  it('refuses a viewer (403) on every staff route', async () => {
    const admin = subOf(adminToken);
    for (const [method, path, body] of [
      ['GET', '/api/admin/staff', undefined],
      ['POST', '/api/admin/staff', { email: 'x@example.org', role: 'viewer' }],
      ['POST', `/api/admin/staff/${admin}/disable`, {}],
      ['POST', `/api/admin/staff/${admin}/assign`, { role: 'viewer' }],
    ] as const) {
      expect(await call(viewerToken, method, path, body)).toMatchObject({
        status: 403,
        body: { error: { code: 'FORBIDDEN' } },
      });
    }
  });

  it('answers an invalid body with 400 and the field codes', async () => {
    const email = `bad-${Date.now()}@example.org`;
    const cases: [unknown, Record<string, string>][] = [
      [{ email, role: 'coordinator' }, { districts: 'REQUIRED' }],
      [{ email, role: 'viewer', districts: ['atlantis'] }, { districts: 'INVALID' }],
      [{ email: 'not-an-email', role: 'viewer' }, { email: 'INVALID' }],
      [{ email, role: 'owner' }, { role: 'INVALID' }],
    ];
    for (const [body, fields] of cases) {
      expect(await call(adminToken, 'POST', '/api/admin/staff', body)).toMatchObject({
        status: 400,
        body: { error: { code: 'VALIDATION_FAILED', fields } },
      });
    }
    expect(await listed(email)).toBeUndefined();
  });

  it('invites, assigns, disables, enables and resets a member, each change in the audit trail', async () => {
    const started = new Date().toISOString();
    const email = `invited-${Date.now()}@example.org`;
    const invited = await call(adminToken, 'POST', '/api/admin/staff', {
      email,
      role: 'coordinator',
      districts: ['tiruvallur', 'chennai'],
    });
    expect(invited.status).toBe(201);
    const { member, temporaryPassword } = invited.body as unknown as StaffInviteResponse;
    expect(temporaryPassword).toMatch(/^.{16}$/);
    expect(member).toMatchObject({
      email,
      role: 'coordinator',
      districts: ['chennai', 'tiruvallur'],
      enabled: true,
      mfa: false,
    });
    expect(member.status).toBe('FORCE_CHANGE_PASSWORD');
    // cognito-local keeps no sign-in events.
    expect(member.lastSignIn).toBeNull();

    expect(await call(adminToken, 'POST', '/api/admin/staff', { email, role: 'viewer' })).toMatchObject({
      status: 400,
      body: { error: { fields: { email: 'TAKEN' } } },
    });

    const path = `/api/admin/staff/${member.sub}`;
    expect(await call(adminToken, 'POST', `${path}/assign`, { role: 'coordinator', districts: [] })).toMatchObject({
      status: 400,
      body: { error: { fields: { districts: 'REQUIRED' } } },
    });
    expect(await call(adminToken, 'POST', `${path}/assign`, { role: 'viewer', districts: ['madurai'] })).toMatchObject({
      status: 200,
      body: { member: { role: 'viewer', districts: ['madurai'] } },
    });
    expect(await call(adminToken, 'POST', `${path}/disable`)).toMatchObject({
      status: 200,
      body: { member: { enabled: false } },
    });
    expect(await call(adminToken, 'POST', `${path}/enable`)).toMatchObject({
      status: 200,
      body: { member: { enabled: true } },
    });
    const reset = await call(adminToken, 'POST', `${path}/reset-mfa`);
    expect(reset).toMatchObject({
      status: 200,
      body: { member: { email, role: 'viewer', districts: ['madurai'], enabled: true } },
    });
    const newSub = (reset.body as unknown as StaffInviteResponse).member.sub;
    expect(newSub).not.toBe(member.sub);
    expect(await listed(email)).toMatchObject({ sub: newSub, role: 'viewer' });

    const { Items = [] } = await db.send(
      new QueryCommand({
        TableName: auditTable,
        KeyConditionExpression: 'pk = :pk AND sk >= :from',
        ExpressionAttributeValues: { ':pk': STAFF_AUDIT_PK, ':from': started },
      }),
    );
    const mine = Items.filter((i) => i.target_sub === member.sub || i.previous_sub === member.sub);
    expect(mine.map((i) => i.action as string)).toEqual([
      'staff-invite',
      'staff-assign',
      'staff-disable',
      'staff-enable',
      'staff-reset-mfa',
    ]);
    expect(mine[0]).toMatchObject({
      by: testStaff.admin.email,
      by_sub: subOf(adminToken),
      role: 'coordinator',
      districts: 'chennai,tiruvallur',
    });
    expect(mine[4]).toMatchObject({ target_sub: newSub, previous_sub: member.sub });
    // To whom is a sub: the member's email is nowhere in the trail.
    expect(JSON.stringify(mine)).not.toContain(email);
  });

  it('does not let an admin disable, demote or reset themselves, and answers 404 for an unknown member', async () => {
    const self = `/api/admin/staff/${subOf(adminToken)}`;
    expect(await call(adminToken, 'POST', `${self}/disable`)).toMatchObject({
      status: 400,
      body: { error: { fields: { sub: 'SELF' } } },
    });
    expect(await call(adminToken, 'POST', `${self}/reset-mfa`)).toMatchObject({
      status: 400,
      body: { error: { fields: { sub: 'SELF' } } },
    });
    expect(await call(adminToken, 'POST', `${self}/assign`, { role: 'viewer' })).toMatchObject({
      status: 400,
      body: { error: { fields: { role: 'SELF' } } },
    });
    expect((await listed(testStaff.admin.email))?.role).toBe('admin');
    expect(
      await call(adminToken, 'POST', '/api/admin/staff/00000000-0000-0000-0000-000000000000/enable'),
    ).toMatchObject({
      status: 404,
    });
  });
});
