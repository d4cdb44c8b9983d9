import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { applicationKey } from '../../lambdas/adapters/application-items';
import { cardGuardKey } from '../../lambdas/adapters/member-cards';
import { memberGuardKey } from '../../lambdas/adapters/member-numbers';
import { backfillOne } from '../../lambdas/adapters/membership-backfill';
import { makeReviewStore } from '../../lambdas/adapters/review';
import { referralCodeKey } from '../../lambdas/adapters/campaigns';
import { GetCommand, QueryCommand } from '../../lambdas/lib/db';
import { ensureTables, localDb, localDynamoClient, localTableNames } from '../../local/dynamodb';
import { main } from '../../ops/members-backfill';
import { parseMemberNumber } from '../../rules/member-number';
import { useLocalTarget } from '../support/local-target';
import { applicationItem, putAll } from '../support/rollups';

// `npm run members:backfill` (issue 20) on fresh tables in DynamoDB Local: members approved
// before the release that numbers them get a number (in the order they applied), a card and
// a referral code, each with its guard and an audit entry; nothing else is touched, and a
// second run does nothing.

const endpoint = inject('dynamoDbEndpoint');
const names = localTableNames(`backfill-${Date.now().toString(36)}`);
const db = localDb(endpoint);
const dir = mkdtempSync(join(tmpdir(), 'backfill-'));
const tables = { applications: names.applications, audit: names.audit, campaigns: names.campaigns };

const app = (id: string, status: string, submitted: string, extra: Record<string, unknown> = {}) => ({
  ...applicationItem({
    id,
    submitted_at: submitted,
    application_status: status as 'approved',
    revenue_district: 'Salem',
  }),
  ...extra,
});

const read = async (id: string) =>
  (await db.send(new GetCommand({ TableName: names.applications, Key: { pk: applicationKey(id) } }))).Item ?? {};

async function run(): Promise<string> {
  let printed = '';
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      printed += chunk.toString();
      done();
    },
  });
  expect(await main([], out)).toBe(0);
  return printed;
}

beforeAll(async () => {
  const client = localDynamoClient(endpoint);
  await ensureTables(client, names);
  client.destroy();
  await putAll(db, names.applications, [
    app('later', 'approved', '2026-03-02T10:00:00.000Z'),
    app('earlier', 'approved', '2026-03-01T10:00:00.000Z'),
    app('pending', 'pending', '2026-03-01T11:00:00.000Z'),
    app('rejected', 'rejected', '2026-03-01T12:00:00.000Z'),
    app('done', 'approved', '2026-02-01T10:00:00.000Z', {
      member_number: 'TNSW-2026-000777',
      card_serial: 'abcdefghjkmnpqrs',
      referral_code: 'DONE1234',
      member_since: '2026-02-02T00:00:00.000Z',
    }),
  ]);
  // The audit trail says when "earlier" was approved: its card's "member since".
  await putAll(db, names.audit, [
    {
      pk: applicationKey('earlier'),
      sk: '2026-03-05T09:00:00.000Z#a',
      action: 'status',
      from: 'pending',
      to: 'approved',
      at: '2026-03-05T09:00:00.000Z',
      by: 'admin@example.org',
    },
  ]);
  useLocalTarget(dir, endpoint, names);
}, 60_000);

afterAll(() => {
  delete process.env.LOCAL_DATA_DIR;
  rmSync(dir, { recursive: true, force: true });
});

describe('members:backfill', () => {
  it('numbers the approved members without one in the order they applied, with a card and a code, and only them', async () => {
    expect(await run()).toMatch(/: 2 approved applications given what they lacked\n$/);
    const earlier = await read('earlier');
    const later = await read('later');
    expect(parseMemberNumber(String(earlier.member_number))).toBeDefined();
    expect(String(earlier.member_number) < String(later.member_number)).toBe(true);
    expect(earlier.member_since).toBe('2026-03-05T09:00:00.000Z');
    // No approval on record: since they applied.
    expect(later.member_since).toBe('2026-03-02T10:00:00.000Z');
    for (const item of [earlier, later]) {
      const guards = await Promise.all([
        db.send(
          new GetCommand({ TableName: names.applications, Key: { pk: memberGuardKey(String(item.member_number)) } }),
        ),
        db.send(new GetCommand({ TableName: names.applications, Key: { pk: cardGuardKey(String(item.card_serial)) } })),
        db.send(
          new GetCommand({ TableName: names.campaigns, Key: { pk: referralCodeKey(String(item.referral_code)) } }),
        ),
      ]);
      expect(guards.map((g) => String(g.Item?.application_id))).toEqual([0, 1, 2].map(() => String(item.id)));
      // As the staff details row reads it (an action it did not know would fail the row).
      const audit = await makeReviewStore(db, tables).auditOf(String(item.id));
      expect(audit.filter((entry) => entry.action === 'membership-backfill')).toHaveLength(1);
    }
    // Neither the pending, the rejected nor the complete one changed.
    expect(await read('pending')).not.toHaveProperty('member_number');
    expect(await read('rejected')).not.toHaveProperty('card_serial');
    expect(await read('done')).toMatchObject({ member_number: 'TNSW-2026-000777', card_serial: 'abcdefghjkmnpqrs' });
  });

  it('does nothing the second time', async () => {
    const before = await read('earlier');
    expect(await run()).toMatch(/: 0 approved applications given what they lacked\n$/);
    expect(await read('earlier')).toEqual(before);
  });

  it('writes nothing to an application that changed since it was read, and lists the drawn number as unused', async () => {
    await putAll(db, names.applications, [app('moved', 'approved', '2026-03-03T10:00:00.000Z')]);
    const stale = await read('moved');
    await putAll(db, names.applications, [app('moved', 'rejected', '2026-03-03T10:00:00.000Z')]);
    expect(await backfillOne(db, tables, stale, new Date())).toBe('changed');
    expect(await read('moved')).not.toHaveProperty('member_number');
    const unused = await db.send(
      new QueryCommand({
        TableName: names.audit,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': 'MEMBER_NUMBERS' },
      }),
    );
    expect(unused.Items?.map((entry) => String(entry.application_id))).toEqual(['moved']);
  });
});
