import { beforeAll, describe, expect, inject, it } from 'vitest';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  isConditionFailed,
  isTransactionCanceled,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '../../lambdas/lib/db';
import { queryAll } from '../../lambdas/lib/dynamo';
import { meterCapacity } from '../../lambdas/lib/capacity-meter';
import { ensureTables, localDb, localDynamoClient, localTableNames } from '../../local/dynamodb';

// The functions' DynamoDB client (lambdas/lib/db.ts, over lambdas/lib/aws-json.ts) against
// DynamoDB Local: every command the code uses, with values of every kind in and out, and
// the errors the adapters tell apart, as the SDK's document client gave them.

const endpoint = inject('dynamoDbEndpoint');
const names = localTableNames(`db-${Date.now().toString(36)}`);
const db = localDb(endpoint);
const table = names.search; // pk + sk, no indexes
const key = (pk: string, sk = 'x') => ({ pk, sk });

beforeAll(async () => {
  await ensureTables(localDynamoClient(endpoint), names);
});

describe('the DynamoDB client over fetch', () => {
  it('writes and reads values of every kind as the document client did', async () => {
    const item = {
      ...key('kinds'),
      text: 'கவியா ராமன்',
      count: 42,
      ratio: 0.5,
      yes: true,
      nothing: null,
      list: [1, 'two', { three: 3 }],
      map: { nested: { deep: ['x'] } },
      tags: new Set(['a', 'b']),
      numbers: new Set([1, 2]),
      skipped: undefined,
    };
    await db.send(new PutCommand({ TableName: table, Item: item }));
    const { Item } = await db.send(new GetCommand({ TableName: table, Key: key('kinds'), ConsistentRead: true }));
    const { skipped: _skipped, ...stored } = item;
    expect(Item).toEqual(stored);
    expect(Item).not.toHaveProperty('skipped');
  });

  it('updates with expression values and answers the new attributes', async () => {
    await db.send(new PutCommand({ TableName: table, Item: { ...key('counter'), n: 1 } }));
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: table,
        Key: key('counter'),
        UpdateExpression: 'SET n = n + :one, #s = :s',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':one': 1, ':s': 'approved' },
        ReturnValues: 'ALL_NEW',
      }),
    );
    expect(Attributes).toEqual({ ...key('counter'), n: 2, status: 'approved' });
  });

  it('names a failed condition as the SDK did, with the old item when asked for', async () => {
    await db.send(new PutCommand({ TableName: table, Item: { ...key('taken'), owner: 'first' } }));
    const error = await db
      .send(
        new PutCommand({
          TableName: table,
          Item: { ...key('taken'), owner: 'second' },
          ConditionExpression: 'attribute_not_exists(pk)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      )
      .catch((e: unknown) => e);
    expect(isConditionFailed(error)).toBe(true);
    expect(isConditionFailed(error) && error.Item?.owner).toEqual({ S: 'first' });
    const { Item } = await db.send(new GetCommand({ TableName: table, Key: key('taken'), ConsistentRead: true }));
    expect(Item?.owner).toBe('first');
  });

  it('writes a transaction whole or not at all, with a reason per item when refused', async () => {
    const write = (owner: string) =>
      db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: table,
                Item: { ...key('tx-a'), owner },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            { Put: { TableName: table, Item: { ...key('tx-b'), owner } } },
          ],
        }),
      );
    await write('first');
    const error = await write('second').catch((e: unknown) => e);
    expect(isTransactionCanceled(error)).toBe(true);
    expect(isTransactionCanceled(error) && error.CancellationReasons?.map((r) => r.Code)).toEqual([
      'ConditionalCheckFailed',
      'None',
    ]);
    const { Responses } = await db.send(
      new TransactGetCommand({
        TransactItems: [
          { Get: { TableName: table, Key: key('tx-a') } },
          { Get: { TableName: table, Key: key('tx-b') } },
        ],
      }),
    );
    expect(Responses?.map((r) => r.Item?.owner as unknown)).toEqual(['first', 'first']);
  });

  it('updates, checks and deletes inside a transaction', async () => {
    await db.send(new PutCommand({ TableName: table, Item: { ...key('tx-c'), n: 1 } }));
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            ConditionCheck: {
              TableName: table,
              Key: key('tx-a'),
              ConditionExpression: '#o = :o',
              ExpressionAttributeNames: { '#o': 'owner' },
              ExpressionAttributeValues: { ':o': 'first' },
            },
          },
          {
            Update: {
              TableName: table,
              Key: key('tx-c'),
              UpdateExpression: 'SET n = :n',
              ExpressionAttributeValues: { ':n': 7 },
            },
          },
          { Delete: { TableName: table, Key: key('tx-b') } },
        ],
      }),
    );
    const { Responses } = await db.send(
      new BatchGetCommand({ RequestItems: { [table]: { Keys: [key('tx-b'), key('tx-c')], ConsistentRead: true } } }),
    );
    expect(Responses?.[table]).toEqual([{ ...key('tx-c'), n: 7 }]);
  });

  it('pages a query with its start key, and batch-writes puts and deletes', async () => {
    await db.send(
      new BatchWriteCommand({
        RequestItems: {
          [table]: Array.from({ length: 12 }, (_, i) => ({
            PutRequest: { Item: key('page', `s${String(i).padStart(2, '0')}`) },
          })),
        },
      }),
    );
    const first = await db.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'pk = :p',
        ExpressionAttributeValues: { ':p': 'page' },
        Limit: 5,
      }),
    );
    expect(first.Items).toHaveLength(5);
    expect(first.LastEvaluatedKey).toEqual(key('page', 's04'));
    const all = await queryAll(db, {
      TableName: table,
      KeyConditionExpression: 'pk = :p',
      ExpressionAttributeValues: { ':p': 'page' },
      Limit: 5,
    });
    expect(all.map((i) => i.sk)).toEqual(Array.from({ length: 12 }, (_, i) => `s${String(i).padStart(2, '0')}`));
    await db.send(
      new BatchWriteCommand({
        RequestItems: { [table]: all.map((i) => ({ DeleteRequest: { Key: key('page', String(i.sk)) } })) },
      }),
    );
    const { Count } = await db.send(
      new ScanCommand({
        TableName: table,
        FilterExpression: 'pk = :p',
        ExpressionAttributeValues: { ':p': 'page' },
        ConsistentRead: true,
      }),
    );
    expect(Count).toBe(0);
  });

  it('deletes with a condition and answers the old attributes', async () => {
    await db.send(new PutCommand({ TableName: table, Item: { ...key('gone'), v: 1 } }));
    const { Attributes } = await db.send(
      new DeleteCommand({
        TableName: table,
        Key: key('gone'),
        ConditionExpression: 'v = :v',
        ExpressionAttributeValues: { ':v': 1 },
        ReturnValues: 'ALL_OLD',
      }),
    );
    expect(Attributes).toEqual({ ...key('gone'), v: 1 });
  });

  it('answers a validation error by name, not as a retry', async () => {
    await expect(db.send(new GetCommand({ TableName: table, Key: { pk: 'only-half' } }))).rejects.toMatchObject({
      name: 'ValidationException',
      $metadata: { httpStatusCode: 400, attempts: 1 },
    });
    await expect(db.send(new GetCommand({ TableName: 'no-such-table', Key: key('a') }))).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });
  });

  it('meters the capacity and items of the work inside measure(), through an interceptor', async () => {
    const metered = localDb(endpoint);
    const meter = meterCapacity(metered);
    await metered.send(new PutCommand({ TableName: table, Item: key('metered') }));
    const { usage } = await meter.measure(async () => {
      await metered.send(new GetCommand({ TableName: table, Key: key('metered'), ConsistentRead: true }));
      await metered.send(new GetCommand({ TableName: table, Key: key('absent'), ConsistentRead: true }));
    });
    expect(usage).toEqual({ requests: 2, itemsRead: 1, capacityUnits: 2 });
  });
});
