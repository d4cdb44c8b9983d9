import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { localConfigSchema } from '../../local/config';
import { localDynamoClient } from '../../local/dynamodb';
import { startLocalStack } from '../../local/stack';

// `npm start` keeps its data: stop it, start it again, and what was stored is there.
const dataDir = mkdtempSync(join(tmpdir(), 'membership-persist-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('local stack', () => {
  it('keeps data across a restart and answers an empty outbox', async () => {
    const config = localConfigSchema.parse({ LOCAL_DATA_DIR: dataDir, LOCAL_WEB: 'false' });

    const first = await startLocalStack(config);
    try {
      expect(await (await fetch(`${first.apiUrl}/dev/outbox.json`)).json()).toEqual([]);
      expect((await fetch(`${first.apiUrl}/api/health`)).status).toBe(200);
      const client = localDynamoClient(first.dynamoDbEndpoint);
      await client.send(
        new PutItemCommand({ TableName: first.tableNames.audit, Item: { pk: { S: 'persist' }, sk: { S: '1' } } }),
      );
      client.destroy();
    } finally {
      await first.stop();
    }

    const second = await startLocalStack(config);
    try {
      const client = localDynamoClient(second.dynamoDbEndpoint);
      const item = await client.send(
        new GetItemCommand({ TableName: second.tableNames.audit, Key: { pk: { S: 'persist' }, sk: { S: '1' } } }),
      );
      client.destroy();
      expect(item.Item?.pk?.S).toBe('persist');
      expect(second.pool.userPoolId).toBe(first.pool.userPoolId);
    } finally {
      await second.stop();
    }
  }, 90_000);
});
