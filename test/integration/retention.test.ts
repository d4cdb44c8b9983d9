import { beforeAll, describe, expect, inject, it } from 'vitest';
import { applicationKey, phoneGuardKey } from '../../lambdas/adapters/application-items';
import { makeReviewStore, type ReviewStore, STATUS_CHANGED_AT } from '../../lambdas/adapters/review';
import { makeHandler } from '../../lambdas/handlers/retention';
import { GetCommand, QueryCommand } from '../../lambdas/lib/db';
import { retentionActor } from '../../lambdas/lib/retention';
import { ensureTables, localDb, localDynamoClient, localTableNames } from '../../local/dynamodb';
import type { ApplicationStatus } from '../../rules/application';
import { applicationItem, putAll } from '../support/rollups';

// The retention job (issue 21) on fresh tables in DynamoDB Local, its clock moved: exactly
// the rejected applications rejected longer ago than the period are erased, as a staff
// erasure does (application, guard, trail; the audit keeps that the job erased it), and
// one whose status changes while the job runs is kept.

const endpoint = inject('dynamoDbEndpoint');
const names = localTableNames(`retention-${Date.now().toString(36)}`);
const db = localDb(endpoint);
const review = makeReviewStore(db, names);

/** An application with its guard and one audit entry: status set at `changed`. */
function seeded(id: string, status: ApplicationStatus, submitted: string, changed?: string) {
  const phone = `9198${String(id.length * 1000 + id.charCodeAt(id.length - 1)).padStart(8, '0')}`;
  const item: Record<string, unknown> = {
    ...applicationItem({ id, submitted_at: submitted, application_status: status, phone_number: phone }),
    updated_at: changed ?? submitted,
    ...(changed && { [STATUS_CHANGED_AT]: changed }),
  };
  return { id, pk: applicationKey(id), item, guard: { pk: phoneGuardKey(phone), application_id: id } };
}

const apps = {
  // Rejected 13 months before the moved clock: erased.
  old: seeded('ret-old', 'rejected', '2026-10-01T05:00:00Z', '2026-11-01T05:00:00Z'),
  // Older than the period, rejected within it: kept.
  recent: seeded('ret-recent', 'rejected', '2026-10-01T05:00:00Z', '2027-01-05T05:00:00Z'),
  // Imported before status times were kept: its updated_at counts.
  legacy: seeded('ret-legacy', 'rejected', '2026-06-01T05:00:00Z'),
  approved: seeded('ret-approved', 'approved', '2025-01-01T05:00:00Z', '2025-02-01T05:00:00Z'),
  pending: seeded('ret-pending', 'pending', '2025-01-01T05:00:00Z'),
  // Approved by a reviewer while the job runs.
  racing: seeded('ret-racing', 'rejected', '2026-09-01T05:00:00Z', '2026-09-02T05:00:00Z'),
};

beforeAll(async () => {
  const client = localDynamoClient(endpoint);
  await ensureTables(client, names);
  client.destroy();
  const all = Object.values(apps);
  await putAll(db, names.applications, [...all.map((a) => a.item), ...all.map((a) => a.guard)]);
  await putAll(
    db,
    names.audit,
    all.map((a) => ({
      pk: a.item.pk,
      sk: `2026-01-01T00:00:00.000Z#${String(a.item.id)}`,
      action: 'status',
      note: 'x',
    })),
  );
});

const exists = async (pk: string) =>
  (await db.send(new GetCommand({ TableName: names.applications, Key: { pk }, ConsistentRead: true }))).Item !==
  undefined;

/** The job with its clock at `at` and the stage's default period. */
function job(at: string, store: Pick<ReviewStore, 'erase'> = review) {
  return makeHandler({
    db,
    applicationsTable: names.applications,
    review: store,
    rejectedDays: 365,
    clock: () => new Date(at),
  });
}

describe('retention job', () => {
  it('erases nothing while every rejection is within the period', async () => {
    expect(await job('2026-11-27T00:00:00Z')()).toMatchObject({ erased: 0, incomplete: false });
    for (const a of Object.values(apps)) expect(await exists(a.pk)).toBe(true);
  });

  it('a year later, erases exactly the rejections past the period, keeping one changed meanwhile', async () => {
    // A reviewer approves `racing` just before the job erases it.
    const racingStore: Pick<ReviewStore, 'erase'> = {
      async erase(id, actor, now, unchangedSince) {
        if (id === apps.racing.id) {
          await review.changeStatus(id, 'approved', { sub: 'reviewer', email: 'r@example.org' }, now);
        }
        return review.erase(id, actor, now, unchangedSince);
      },
    };
    const result = await job('2027-12-01T00:00:00Z', racingStore)();
    expect(result).toEqual({ examined: 4, erased: 2, changedMeanwhile: 1, incomplete: false });
    const gone = [apps.old, apps.legacy];
    const kept = [apps.recent, apps.approved, apps.pending, apps.racing];
    for (const a of gone) {
      expect(await exists(a.pk)).toBe(false);
      expect(await exists(a.guard.pk)).toBe(false);
    }
    for (const a of kept) {
      expect(await exists(a.pk)).toBe(true);
      expect(await exists(a.guard.pk)).toBe(true);
    }
    // The trail of an erased application goes; the audit says the job erased it, and when.
    const trail = await db.send(
      new QueryCommand({
        TableName: names.audit,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': applicationKey('ret-old') },
      }),
    );
    expect(trail.Items).toEqual([]);
    const erasures = await db.send(
      new QueryCommand({
        TableName: names.audit,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': 'ERASURES' },
      }),
    );
    expect(erasures.Items?.map((e) => [String(e.application_id), String(e.by), String(e.at)]).sort()).toEqual([
      ['ret-legacy', retentionActor.sub, '2027-12-01T00:00:00.000Z'],
      ['ret-old', retentionActor.sub, '2027-12-01T00:00:00.000Z'],
    ]);
    // Run again: nothing more to erase.
    expect(await job('2027-12-01T00:00:00Z')()).toMatchObject({ erased: 0, changedMeanwhile: 0 });
  });

  it('stops when its time runs short, leaving the rest to the next run', async () => {
    const handler = job('2029-01-01T00:00:00Z');
    const result = await handler(undefined, { getRemainingTimeInMillis: () => 30_000 });
    expect(result).toEqual({ examined: 0, erased: 0, changedMeanwhile: 0, incomplete: true });
    expect(await exists(apps.recent.pk)).toBe(true);
  });
});
