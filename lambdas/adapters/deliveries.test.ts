import { afterEach, describe, expect, it } from 'vitest';
import { deliveryStatuses } from '../../rules/api';
import { dbDouble, serviceError } from '../../test/support/db-double';
import { GetCommand, UpdateCommand } from '../lib/db';
import { deliveryKey, makeDeliveryStore, statusRank } from './deliveries';

// The store's behaviour against DynamoDB Local, in every order of reports, is the
// property test of the integration tier (test/integration/delivery-order.test.ts).
// Here: what a real server does not readily produce (throttling, a foreign item).
const ddb = dbDouble();
afterEach(() => ddb.reset());

const store = () => makeDeliveryStore(ddb.db, 'deliveries');
const ref = { channel: 'whatsapp', messageId: 'wamid.ABC' } as const;
const at = new Date('2026-11-21T10:00:00Z');
const conditionFailed = () => serviceError('ConditionalCheckFailedException');

describe('delivery store', () => {
  it('ranks the statuses as documented, and keys items by channel and message id', () => {
    expect([...deliveryStatuses].sort((a, b) => statusRank[a] - statusRank[b])).toEqual([
      'accepted',
      'sent',
      'failed',
      'delivered',
      'read',
    ]);
    expect(deliveryKey(ref)).toBe('MSG#whatsapp#wamid.ABC');
  });

  it('answers a report that changes nothing as a duplicate, not an error', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed());
    expect(await store().recordStatus(ref, 'delivered', at)).toBe('duplicate');
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(2);
  });

  it('keeps only the time of a lower status reported late', async () => {
    ddb.on(UpdateCommand).rejectsOnce(conditionFailed()).resolves({});
    expect(await store().recordStatus(ref, 'failed', at, '131026')).toBe('late');
    const late = ddb.commandCalls(UpdateCommand)[1]!.args[0].input;
    expect(late.UpdateExpression).toBe('SET #time = :at, error_code = if_not_exists(error_code, :code)');
    expect(late.ExpressionAttributeNames).toEqual({ '#time': 'failed_at' });
  });

  it('lets a throttled write fail, so that the caller is retried', async () => {
    ddb.on(UpdateCommand).rejects(serviceError('ProvisionedThroughputExceededException'));
    await expect(store().recordStatus(ref, 'sent', at)).rejects.toMatchObject({ name: 'ProvisionedThroughputExceededException' });
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(1);
  });

  it('refuses an item that is not a delivery record instead of casting it', async () => {
    ddb.on(GetCommand).resolves({ Item: { pk: deliveryKey(ref), status: 'lost' } });
    await expect(store().get(ref)).rejects.toThrow();
  });

  it('reads an expired record as absent (TTL deletion lags)', async () => {
    const old = {
      pk: deliveryKey(ref),
      channel: 'whatsapp',
      status: 'sent',
      status_rank: 1,
      ttl: Math.floor(Date.now() / 1000) - 10,
    };
    ddb.on(GetCommand).resolves({ Item: old });
    expect(await store().get(ref)).toBeUndefined();
  });
});
