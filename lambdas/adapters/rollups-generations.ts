import { setTimeout as sleep } from 'node:timers/promises';
import type { BatchWriteCommandInput, BatchWriteCommandOutput } from '@aws-sdk/lib-dynamodb';
import { BatchWriteCommand, type Db, UpdateCommand } from '../lib/db';
import type { ApplicationStatus } from '../../rules/application';
import { ignoreConditionFailed, retryConflicts, scanPages } from '../lib/dynamo';
import { readMeta } from './rollups-reader';
import {
  activeGenerations,
  generationPrefix,
  metaKey,
  parseMeta,
  type RollupsMeta,
  rowUpdate,
  splitCounters,
  totalsKey,
  totalsUpdate,
} from './rollups-keys';

// The rebuild's side of the rollups (lambdas/lib/rollups-rebuild.ts): a new generation
// is started, filled, switched to, and the old one deleted. Only the rebuild command
// (and tests) hold this: a handler never can delete a generation.

export interface RollupsGenerations {
  /**
   * Marks `gen` as the one being built; META as it is then. Undefined when another
   * rebuild is under way (unless `force`: taking over from one that was interrupted).
   */
  startBuilding(gen: string, force: boolean): Promise<RollupsMeta | undefined>;
  /** Adds counter changes without a state (the rebuild's sums); rows must exist. */
  addCounters(
    gen: string,
    counters: ReadonlyMap<string, ReadonlyMap<number, number>>,
    statuses: ReadonlyMap<ApplicationStatus, number>,
  ): Promise<void>;
  /** Makes the generation being built the one reports read. */
  switchTo(gen: string): Promise<void>;
  /** Deletes every item of a generation that is not active. Returns how many. */
  deleteGeneration(gen: string): Promise<number>;
}

export function makeRollupsGenerations(db: Db, tableName: string): RollupsGenerations {
  const batchDelete = async (keys: { pk: string; sk: string }[]): Promise<void> => {
    let requests: NonNullable<BatchWriteCommandInput['RequestItems']>[string] | undefined = keys.map((Key) => ({
      DeleteRequest: { Key },
    }));
    for (let attempt = 0; requests && requests.length > 0; attempt++) {
      const result: BatchWriteCommandOutput = await db.send(
        new BatchWriteCommand({ RequestItems: { [tableName]: requests } }),
      );
      requests = result.UnprocessedItems?.[tableName];
      if (requests && requests.length > 0) await sleep(Math.min(50 * 2 ** attempt, 1000));
    }
  };

  return {
    async startBuilding(gen, force) {
      const result = await ignoreConditionFailed(
        db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: metaKey,
            UpdateExpression: 'SET gen_building = :g',
            ConditionExpression: force
              ? 'attribute_exists(pk) AND gen_current <> :g'
              : 'attribute_exists(pk) AND attribute_not_exists(gen_building) AND gen_current <> :g',
            ExpressionAttributeValues: { ':g': gen },
            ReturnValues: 'ALL_NEW',
          }),
        ),
      );
      return result && parseMeta(result.Attributes!);
    },

    async addCounters(gen, counters, statuses) {
      const updates: Promise<unknown>[] = [];
      const update = (input: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName'>) =>
        updates.push(retryConflicts(() => db.send(new UpdateCommand({ TableName: tableName, ...input }))));
      for (const [key, changes] of counters) {
        for (const part of splitCounters(changes)) update(rowUpdate(gen, key, part));
      }
      const totals = totalsUpdate(statuses);
      if (totals) update({ Key: totalsKey(gen), ...totals });
      await Promise.all(updates);
    },

    async switchTo(gen) {
      await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: metaKey,
          UpdateExpression: 'SET gen_current = :g REMOVE gen_building',
          ConditionExpression: 'gen_building = :g',
          ExpressionAttributeValues: { ':g': gen },
        }),
      );
    },

    async deleteGeneration(gen) {
      const meta = await readMeta(db, tableName);
      if (meta && activeGenerations(meta).includes(gen)) throw new Error(`Generation ${gen} is in use`);
      let deleted = 0;
      const pages = scanPages(db, {
        TableName: tableName,
        FilterExpression: 'begins_with(pk, :p)',
        ExpressionAttributeValues: { ':p': generationPrefix(gen) },
        ProjectionExpression: 'pk, sk',
      });
      for await (const page of pages) {
        const keys = page.map((i) => ({ pk: i.pk as string, sk: i.sk as string }));
        const batches: Promise<void>[] = [];
        for (let i = 0; i < keys.length; i += 25) batches.push(batchDelete(keys.slice(i, i + 25)));
        await Promise.all(batches);
        deleted += keys.length;
      }
      return deleted;
    },
  };
}
