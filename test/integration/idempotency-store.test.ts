import { randomUUID } from 'node:crypto';
import {
  IdempotencyConfig,
  IdempotencyItemAlreadyExistsError,
  IdempotencyItemNotFoundError,
  IdempotencyValidationError,
} from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { BasePersistenceLayer } from '@aws-lambda-powertools/idempotency/persistence';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { afterAll, afterEach, describe, expect, inject, it, vi } from 'vitest';
import { DbPersistenceLayer } from '../../lambdas/adapters/idempotency-store';
import { makeDb } from '../../lambdas/lib/db';
import { localCredentials, localDynamoClient, localRegion } from '../../local/dynamodb';

// The outbound consumer's idempotency records over lambdas/lib/db.ts, against DynamoDB
// Local and the table the stack creates: each step of Powertools' protocol (save in
// progress, a duplicate, success, expiry, delete), and the items are those
// DynamoDBPersistenceLayer (the SDK's, which it replaces) writes and reads.

const endpoint = inject('dynamoDbEndpoint');
const tableName = inject('tableNames').idempotency!;
const client = localDynamoClient(endpoint);
const db = makeDb({ region: localRegion, endpoint, credentials: localCredentials });
afterAll(() => client.destroy());
afterEach(() => vi.restoreAllMocks());

/** A layer configured as the consumer's: the `outbound` prefix, a week's expiry. */
function configured<L extends BasePersistenceLayer>(layer: L, options: { validate?: boolean } = {}): L {
  layer.configure({
    config: new IdempotencyConfig({
      expiresAfterSeconds: 7 * 24 * 3600,
      ...(options.validate && { payloadValidationJmesPath: 'decision' }),
    }),
    keyPrefix: 'outbound',
  });
  return layer;
}

const store = (options?: { validate?: boolean }) => configured(new DbPersistenceLayer({ db, tableName }), options);
const sdkStore = (options?: { validate?: boolean }) =>
  configured(new DynamoDBPersistenceLayer({ tableName, awsSdkV3Client: client }), options);

/** A message of its own per test: the key is its hash. */
const message = (): Message => ({ kind: 'decision', applicationId: randomUUID(), decision: 'approved' });
type Message = { kind: string; applicationId: string; decision: string };

/** The error a save throws, or fails the test. */
async function saveRefused(layer: BasePersistenceLayer, data: Message, remainingMs = 30_000) {
  const error = await layer.saveInProgress(data, remainingMs).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(IdempotencyItemAlreadyExistsError);
  return (error as IdempotencyItemAlreadyExistsError).existingRecord;
}

/** The stored item, as DynamoDB holds it (plain values). */
async function storedItem(data: Message, layer: BasePersistenceLayer = store()) {
  const key = (layer as unknown as { getHashedIdempotencyKey(d: Message): string }).getHashedIdempotencyKey(data);
  const { Item } = await client.send(new GetItemCommand({ TableName: tableName, Key: { id: { S: key } } }));
  return Item && unmarshall(Item);
}

const DAY_MS = 24 * 3600 * 1000;
/** Moves the layers' clock (Date.now) forward; signing and DynamoDB Local keep the real one. */
function later(ms: number) {
  const now = Date.now();
  vi.spyOn(Date, 'now').mockReturnValue(now + ms);
}

describe('DbPersistenceLayer against DynamoDB Local', () => {
  it('saves a first delivery in progress, with the expiries Powertools reads', async () => {
    const data = message();
    const before = Date.now();
    await store().saveInProgress(data, 30_000);

    const item = await storedItem(data);
    expect(item).toEqual({
      id: expect.stringMatching(/^outbound#[A-Za-z0-9+/]{22}==$/) as unknown,
      status: 'INPROGRESS',
      expiration: expect.any(Number) as unknown,
      in_progress_expiration: expect.any(Number) as unknown,
    });
    expect(item!.expiration).toBeGreaterThanOrEqual(Math.floor(before / 1000) + 7 * 24 * 3600);
    expect(item!.in_progress_expiration).toBeGreaterThanOrEqual(before + 30_000);
  });

  it('refuses a duplicate while the first is in progress, with the record in the way', async () => {
    const data = message();
    await store().saveInProgress(data, 30_000);

    // Another container (no shared cache): DynamoDB's condition decides.
    const existing = await saveRefused(store(), data);
    expect(existing?.getStatus()).toBe('INPROGRESS');
    expect(existing?.inProgressExpiryTimestamp).toBeGreaterThan(Date.now());
  });

  it('answers a completed delivery from its record, on a duplicate and on a read', async () => {
    const data = message();
    const result = { kind: 'decision', channel: 'whatsapp', messageId: 'wamid.1' };
    await store().saveInProgress(data, 30_000);
    await store().saveSuccess(data, result);

    const existing = await saveRefused(store(), data);
    expect(existing?.getStatus()).toBe('COMPLETED');
    expect(existing?.getResponse()).toEqual(result);
    const read = await store().getRecord(data);
    expect(read.getStatus()).toBe('COMPLETED');
    expect(read.getResponse()).toEqual(result);
  });

  it('saves over an in-progress record whose invocation ran out of time', async () => {
    const data = message();
    await store().saveInProgress(data, 1_000);
    await saveRefused(store(), data);

    later(2_000);
    await store().saveInProgress(data, 30_000);
    expect((await storedItem(data))?.in_progress_expiration).toBe(Date.now() + 30_000);
  });

  it('saves over a record past its expiry that the TTL has not removed yet', async () => {
    const data = message();
    await store().saveInProgress(data, 30_000);
    await store().saveSuccess(data, { kind: 'webhook', status: 200 });

    later(8 * DAY_MS);
    await store().saveInProgress(data, 30_000);
    expect((await storedItem(data))?.status).toBe('INPROGRESS');
  });

  it('deletes a record (a failed send), so that the retry sends', async () => {
    const data = message();
    await store().saveInProgress(data, 30_000);
    await store().deleteRecord(data);

    await expect(store().getRecord(data)).rejects.toBeInstanceOf(IdempotencyItemNotFoundError);
    expect(await storedItem(data)).toBeUndefined();
    await store().saveInProgress(data, 30_000);
  });

  it('keeps the payload hash and refuses a different payload under the same key', async () => {
    const data = message();
    await store({ validate: true }).saveInProgress(data, 30_000);
    await store({ validate: true }).saveSuccess(data, { kind: 'webhook', status: 200 });

    const stored = (await storedItem(data))?.validation as string;
    expect(stored).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    // Read back, the hash is what Powertools compares a later payload's `decision` with.
    const layer = store({ validate: true });
    const record = await layer.getRecord(data);
    expect(record.payloadHash).toBe(stored);
    expect(() => layer.processExistingRecord(record, { ...data, decision: 'rejected' })).toThrow(
      IdempotencyValidationError,
    );
  });
});

describe('the same items as DynamoDBPersistenceLayer', () => {
  /** An item without what differs between two runs: the key (another message) and the clock. */
  const shape = (item: Record<string, unknown> | undefined) =>
    item && { ...item, id: undefined, expiration: typeof item.expiration, in_progress_expiration: undefined };

  it('writes what it writes, at each step', async () => {
    const [ours, theirs] = [message(), message()];
    const result = { kind: 'welcome', sent: true, messageId: 'wamid.2' };
    await store({ validate: true }).saveInProgress(ours, 30_000);
    await sdkStore({ validate: true }).saveInProgress(theirs, 30_000);
    expect(shape(await storedItem(ours))).toEqual(shape(await storedItem(theirs)));
    expect(Object.keys((await storedItem(ours))!).sort()).toEqual(Object.keys((await storedItem(theirs))!).sort());

    await store({ validate: true }).saveSuccess(ours, result);
    await sdkStore({ validate: true }).saveSuccess(theirs, result);
    expect(shape(await storedItem(ours))).toEqual(shape(await storedItem(theirs)));
  });

  it('reads what it wrote, and it reads ours', async () => {
    const [fromSdk, fromOurs] = [message(), message()];
    await sdkStore().saveInProgress(fromSdk, 30_000);
    await sdkStore().saveSuccess(fromSdk, { kind: 'webhook', status: 200 });
    await store().saveInProgress(fromOurs, 30_000);

    expect((await saveRefused(store(), fromSdk))?.getResponse()).toEqual({ kind: 'webhook', status: 200 });
    expect((await saveRefused(sdkStore(), fromOurs))?.getStatus()).toBe('INPROGRESS');
  });
});
