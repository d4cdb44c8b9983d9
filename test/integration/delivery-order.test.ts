import { GetCommand } from '../../lambdas/lib/db';
import fc from 'fast-check';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { localDb, localDynamoClient } from '../../local/dynamodb';
import { type DeliveryStatus } from '../../rules/api';
import {
  type DeliveryRecord,
  type DeliveryStore,
  makeDeliveryStore,
  statusRank,
} from '../../lambdas/adapters/deliveries';

// Whatever the order in which providers report a message's statuses (late, twice,
// delivered after failed, read before delivered), against DynamoDB Local: the stored
// status is the highest reported, each status's time is the first time it was reported,
// and the send's own `accepted` write, arriving before, between or after, lowers nothing.

const client = localDynamoClient(inject('dynamoDbEndpoint'));
const db = localDb(inject('dynamoDbEndpoint'));
const table = inject('tableNames').deliveries!;
const store: DeliveryStore = makeDeliveryStore(db, table);
afterAll(() => client.destroy());

type Reported = Exclude<DeliveryStatus, 'accepted'>;
type Step = { kind: 'status'; status: Reported; at: Date; code?: string } | { kind: 'accepted'; at: Date };

const timeKey = {
  accepted: 'acceptedAt',
  sent: 'sentAt',
  failed: 'failedAt',
  delivered: 'deliveredAt',
  read: 'readAt',
} as const;
const base = Date.now();

const statusStep = fc.record({
  kind: fc.constant('status' as const),
  status: fc.constantFrom<Reported>('sent', 'delivered', 'read', 'failed'),
  at: fc.integer({ min: 0, max: 600_000 }).map((ms) => new Date(base + ms)),
  code: fc.option(fc.constantFrom('131026', '131049', 'TEXT_BLOCKED'), { nil: undefined }),
});
const acceptedStep = fc
  .integer({ min: 0, max: 600_000 })
  .map((ms): Step => ({ kind: 'accepted', at: new Date(base + ms) }));
// Permutations with repeats of the four statuses, and the send's own write somewhere (or not at all).
const steps = fc
  .tuple(fc.array(statusStep, { minLength: 1, maxLength: 8 }), fc.option(acceptedStep, { nil: undefined }), fc.nat())
  .map(([reports, accepted, where]): Step[] => {
    const all: Step[] = [...reports];
    if (accepted) all.splice(where % (all.length + 1), 0, accepted);
    return all;
  });

/** What the store must hold after the steps, worked out without DynamoDB. */
function expected(all: readonly Step[]): Partial<DeliveryRecord> {
  let status: DeliveryStatus | undefined;
  const times: Partial<Record<DeliveryStatus, string>> = {};
  let errorCode: string | undefined;
  for (const step of all) {
    const s: DeliveryStatus = step.kind === 'accepted' ? 'accepted' : step.status;
    if (status === undefined || statusRank[s] > statusRank[status]) status = s;
    if (times[s] === undefined) {
      times[s] = step.at.toISOString();
      if (step.kind === 'status' && s === 'failed' && step.code !== undefined) errorCode ??= step.code;
    }
  }
  return {
    status: status!,
    ...Object.fromEntries(Object.entries(times).map(([s, t]) => [timeKey[s as DeliveryStatus], t])),
    ...(errorCode !== undefined && { errorCode }),
  };
}

let counter = 0;

describe('delivery status in any order of reports', () => {
  it('ends at the highest status, with each status first time, whatever the order', async () => {
    await fc.assert(
      fc.asyncProperty(steps, async (all) => {
        counter += 1;
        const ref = { channel: counter % 2 ? 'whatsapp' : 'sms', messageId: `order-${Date.now()}-${counter}` } as const;
        const changes: string[] = [];
        for (const step of all) {
          if (step.kind === 'accepted') await store.recordAccepted(ref, { purpose: 'otp' }, step.at);
          else changes.push(await store.recordStatus(ref, step.status, step.at, step.code));
        }
        const record = await store.get(ref);
        const want = expected(all);
        expect(record).toEqual({
          channel: ref.channel,
          messageId: ref.messageId,
          ...(all.some((s) => s.kind === 'accepted') && { purpose: 'otp' }),
          ...want,
        });
        // Each status counts once: one change that is not a duplicate per distinct status reported.
        const distinct = new Set(all.flatMap((s) => (s.kind === 'status' ? [s.status] : [])));
        expect(changes.filter((c) => c !== 'duplicate')).toHaveLength(distinct.size);

        const item = (
          await db.send(new GetCommand({ TableName: table, Key: { pk: `MSG#${ref.channel}#${ref.messageId}` } }))
        ).Item!;
        expect(item.status_rank).toBe(statusRank[want.status!]);
        expect(item.ttl).toBeGreaterThan(Date.now() / 1000 + 29 * 86_400);
      }),
      { numRuns: 60 },
    );
  });

  it('keeps every status of concurrent reports of one message', async () => {
    const ref = { channel: 'whatsapp', messageId: `concurrent-${Date.now()}` } as const;
    const reports: Reported[] = ['read', 'sent', 'delivered', 'failed', 'read', 'sent', 'delivered', 'failed'];
    await Promise.all([
      ...reports.map((status, i) =>
        store.recordStatus(ref, status, new Date(base + i * 1000), status === 'failed' ? '131026' : undefined),
      ),
      store.recordAccepted(ref, { purpose: 'decision', applicationId: 'app-1', decision: 'approved' }, new Date(base)),
    ]);
    const record = await store.get(ref);
    expect(record).toMatchObject({
      status: 'read',
      purpose: 'decision',
      applicationId: 'app-1',
      decision: 'approved',
      errorCode: '131026',
    });
    expect(record?.sentAt && record.deliveredAt && record.readAt && record.failedAt && record.acceptedAt).toBeTruthy();
  });

  it('stores no phone number, only what docs/MESSAGING.md lists', async () => {
    const ref = { channel: 'sms', messageId: `layout-${Date.now()}` } as const;
    await store.recordAccepted(ref, { purpose: 'welcome' }, new Date(base));
    await store.recordStatus(ref, 'failed', new Date(base + 1000), 'TEXT_BLOCKED');
    const item = (await db.send(new GetCommand({ TableName: table, Key: { pk: `MSG#sms#${ref.messageId}` } }))).Item!;
    expect(Object.keys(item).sort()).toEqual(
      [
        'accepted_at',
        'channel',
        'error_code',
        'failed_at',
        'pk',
        'purpose',
        'status',
        'status_rank',
        'ttl',
        'updated_at',
      ].sort(),
    );
    expect(await store.get({ channel: 'sms', messageId: 'never-sent' })).toBeUndefined();
  });
});
