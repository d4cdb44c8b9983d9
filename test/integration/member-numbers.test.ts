import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { memberGuardKey, memberSequenceKey, UNUSED_MEMBER_NUMBERS } from '../../lambdas/adapters/member-numbers';
import { makeReviewStore } from '../../lambdas/adapters/review';
import { AwsServiceError, GetCommand } from '../../lambdas/lib/db';
import { localDb } from '../../local/dynamodb';
import { queryAll, scanPages } from '../../lambdas/lib/dynamo';
import { applicationExportColumns, toCsv } from '../../rules/csv';
import { istDay } from '../../rules/ist';
import { formatMemberNumber, parseMemberNumber } from '../../rules/member-number';
import type { ApplicationDetail, ListResponse, StatusChangeResponse } from '../../rules/staff-api';
import { applicationItem, inParallel, putAll } from '../support/rollups';
import { startScopeTier, type ScopeTier } from '../support/scope-tier';
import { sendUntilDone } from '../support/status-change';
import { testStaff } from '../support/staff';
import { signIn } from '../support/tokens';

// Issue 20's member numbers through the real status route on DynamoDB Local, on a fresh
// applications table (so the stage's sequence starts at 1): concurrent approvals, bulk
// and single, overlapping, never share a number; every sequence drawn is a member's or
// listed as unused; a number never changes when the status moves away and back.

const pool = inject('pool');
const auditTable = inject('tableNames').audit!;
// The audit table is shared by every tier: this run's application ids are its own.
const run = Date.now().toString(36);
let tier: ScopeTier;
let admin = '';

beforeAll(async () => {
  tier = await startScopeTier('members', { search: false });
  admin = await signIn(inject('cognitoEndpoint'), pool.clientId, testStaff.admin);
}, 60_000);
afterAll(() => tier?.stop());

/** `count` pending applications of Salem, put straight into the table. */
async function pending(prefix: string, count: number): Promise<string[]> {
  const submitted = new Date(Date.now() - 60_000).toISOString();
  const items = Array.from({ length: count }, (_, i) =>
    applicationItem({
      id: `${prefix}-${run}-${String(i).padStart(4, '0')}`,
      submitted_at: submitted,
      application_status: 'pending',
      revenue_district: 'Salem',
    }),
  );
  await putAll(tier.db, tier.names.applications, items);
  return items.map((item) => String(item.id));
}

async function setStatus(ids: string[], status: string): Promise<StatusChangeResponse> {
  const answer = await tier.call<StatusChangeResponse>(admin, 'POST', '/api/admin/applications/status', {
    ids,
    status,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

/** Sets `status` on `ids`, sending again the ids a request had no time for (`notDone`). */
const setAll = (ids: string[], status = 'approved') => sendUntilDone((left) => setStatus(left, status), ids);

/** Every application's member number, every guard and the counter, read consistently. */
async function snapshot() {
  const items: Record<string, unknown>[] = [];
  for await (const page of scanPages(tier.db, { TableName: tier.names.applications, ConsistentRead: true })) {
    items.push(...page);
  }
  const numbers = new Map<string, string>();
  const guards = new Map<string, string>();
  for (const item of items) {
    const pk = String(item.pk);
    if (pk.startsWith('APP#') && typeof item.member_number === 'string')
      numbers.set(String(item.id), item.member_number);
    if (pk.startsWith('MEMBER#')) guards.set(pk, String(item.application_id));
  }
  const counter = items.find((item) => item.pk === memberSequenceKey);
  const listed = await queryAll(tier.db, {
    TableName: auditTable,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': UNUSED_MEMBER_NUMBERS },
    ConsistentRead: true,
  });
  const unused = listed
    .filter((item) => String(item.application_id).includes(`-${run}-`))
    .map((item) => Number(item.sequence))
    .sort((a, b) => a - b);
  return { numbers, guards, next: Number(counter?.next ?? 0), unused };
}

const sequenceOf = (memberNumber: string) => parseMemberNumber(memberNumber)!.sequence;

describe('member numbers', () => {
  it('gives 500 concurrent approvals (bulk and single, overlapping) 500 distinct numbers, every drawn one accounted for', async () => {
    const ids = await pending('m', 500);
    // Six bulk requests of 100 ids, each overlapping the next by 20, and every seventh id
    // approved alone as well, by twelve admins at once, in the order the bulk requests go
    // through them: all at once. (Not all 72 at once: on a loaded machine DynamoDB Local
    // serves some ten transactions a second, and each would wait longer than a function's time.)
    const bulk = Array.from({ length: 6 }, (_, k) => ids.slice(k * 80, k * 80 + 100));
    const singles = ids.filter((_, i) => i % 7 === 0);
    const answers: StatusChangeResponse[] = [];
    await Promise.all([
      ...bulk.map(async (selection) => answers.push(await setAll(selection))),
      inParallel(singles, 12, async (id) => answers.push(await setAll([id]))),
    ]);
    // Every application changed once, by one request; the others found it approved already.
    const changed = answers.flatMap((a) => a.changed);
    expect(changed.sort()).toEqual([...ids].sort());
    expect(answers.flatMap((a) => a.notFound)).toEqual([]);

    // Read as soon as every request answered: nothing of them may still be running.
    const { numbers, guards, next, unused } = await snapshot();
    expect(numbers.size).toBe(500);
    const given = [...numbers.values()];
    expect(new Set(given).size).toBe(500);
    const year = Number(istDay(new Date()).slice(0, 4));
    for (const memberNumber of given) expect(parseMemberNumber(memberNumber)?.year).toBe(year);
    // Each number's guard names its application, and there is no other guard.
    expect(guards.size).toBe(500);
    for (const [id, memberNumber] of numbers) expect(guards.get(memberGuardKey(memberNumber))).toBe(id);
    // Every sequence drawn is a member's or listed as unused (an approval that lost the
    // race for an application both requests held): no other gap, none shared.
    const sequences = given.map(sequenceOf);
    const accounted = [...sequences, ...unused].sort((a, b) => a - b);
    expect(new Set(accounted).size).toBe(accounted.length);
    expect(accounted).toEqual(Array.from({ length: next }, (_, i) => i + 1));
  }, 180_000);

  it('numbers approvals that never race without a gap, and keeps a number when the status moves away and back', async () => {
    const before = await snapshot();
    const ids = await pending('n', 60);
    // Disjoint selections, bulk and single, at once: no application is in two of them.
    const answers = await Promise.all([
      setAll(ids.slice(0, 25)),
      setAll(ids.slice(25, 50)),
      ...ids.slice(50).map((id) => setAll([id])),
    ]);
    expect(answers.flatMap((a) => a.changed)).toHaveLength(60);
    const after = await snapshot();
    expect(after.unused).toEqual(before.unused);
    const fresh = ids.map((id) => sequenceOf(after.numbers.get(id)!)).sort((a, b) => a - b);
    expect(fresh).toEqual(Array.from({ length: 60 }, (_, i) => before.next + i + 1));

    // Away and back, by every way there is: the number stays, none is drawn.
    const moved = ids.slice(0, 10);
    await setAll(moved, 'pending');
    await setAll(moved.slice(0, 5), 'rejected');
    await setAll(moved.slice(5), 'under_review');
    await Promise.all([setAll(moved), setAll(moved.slice(0, 3))]);
    const again = await snapshot();
    expect(again.next).toBe(after.next);
    for (const id of moved) expect(again.numbers.get(id)).toBe(after.numbers.get(id));
    expect(again.guards.size).toBe(after.guards.size);

    // Staff see it in the details row, the list and the export.
    const id = ids[0]!;
    const memberNumber = after.numbers.get(id)!;
    const detail = await tier.call<ApplicationDetail>(admin, 'GET', `/api/admin/applications/${id}`);
    expect(detail.body.application.member_number).toBe(memberNumber);
    const list = await tier.call<ListResponse>(admin, 'POST', '/api/admin/applications/search', {
      filters: { status: 'approved', district: 'Salem' },
      pageSize: 100,
    });
    const row = list.body.items.find((r) => r.id === id);
    expect(row?.member_number).toBe(memberNumber);
    const csv: Record<string, string>[] = parse(toCsv([row!], applicationExportColumns), { bom: true, columns: true });
    expect(csv[0]?.member_number).toBe(memberNumber);
    // A pending application has none, anywhere.
    const other = await pending('p', 1);
    const none = await tier.call<ApplicationDetail>(admin, 'GET', `/api/admin/applications/${other[0]}`);
    expect(none.body.application.member_number).toBeUndefined();
    const guard = await tier.db.send(
      new GetCommand({ TableName: tier.names.applications, Key: { pk: memberGuardKey(memberNumber) } }),
    );
    expect(guard.Item).toMatchObject({ application_id: id, sequence: sequenceOf(memberNumber) });
    expect(formatMemberNumber(sequenceOf(memberNumber), new Date(String(guard.Item?.issued_at)))).toBe(memberNumber);
  }, 120_000);

  describe('a transaction that another one holds (TransactionConflict, which DynamoDB Local does not give on demand)', () => {
    const conflict = () =>
      new AwsServiceError('TransactionCanceledException', 'Transaction cancelled', 400, 1, {
        CancellationReasons: [{ Code: 'TransactionConflict' }, { Code: 'None' }, { Code: 'None' }, { Code: 'None' }],
      });
    /** A review store whose first `times` transactions are canceled by a conflict, and the waits it made. */
    function conflicted(times: number) {
      const db = localDb(inject('dynamoDbEndpoint'));
      let left = times;
      db.intercept(async (operation, input, next) => {
        if (operation === 'TransactWriteItems' && left-- > 0) throw conflict();
        return next(input);
      });
      const waits: number[] = [];
      const store = makeReviewStore(
        db,
        { applications: tier.names.applications, audit: auditTable },
        { pause: async (ms) => void waits.push(ms) },
      );
      return { store, waits };
    }
    const actor = { sub: 'admin-sub', email: '' };

    it('waits a random while and tries the same number again, until it is made', async () => {
      const [id] = await pending('c', 1);
      const before = await snapshot();
      const { store, waits } = conflicted(3);
      expect(await store.changeStatus(id!, 'approved', actor, new Date())).toBe('changed');
      expect(waits).toHaveLength(3);
      // Full jitter under a growing cap: 20 ms × 2^n.
      waits.forEach((ms, n) => expect(ms).toBeLessThanOrEqual(20 * 2 ** (n + 1)));
      const after = await snapshot();
      expect(after.next).toBe(before.next + 1);
      expect(sequenceOf(after.numbers.get(id!)!)).toBe(after.next);
      expect(after.unused).toEqual(before.unused);
    });

    it('ends not-done, not in an error, when the conflicts outlast its tries or its time, and lists the number', async () => {
      const [id, late] = await pending('d', 2);
      const before = await snapshot();
      const { store, waits } = conflicted(1000);
      expect(await store.changeStatus(id!, 'approved', actor, new Date())).toBe('not-done');
      expect(waits).toHaveLength(12);
      const after = await snapshot();
      expect(after.next).toBe(before.next + 1);
      expect(after.numbers.has(id!)).toBe(false);
      expect(after.unused).toEqual([...before.unused, after.next].sort((a, b) => a - b));
      // Out of time before it starts: nothing read, drawn or written.
      const timed = conflicted(0).store;
      expect(
        await timed.changeStatus(late!, 'approved', actor, new Date(), undefined, undefined, { deadline: 0 }),
      ).toBe('not-done');
      expect((await snapshot()).next).toBe(after.next);
    });
  });
});
