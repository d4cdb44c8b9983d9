import type { BatchGetCommandOutput, QueryCommandInput, ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import { BatchGetCommand, type Db, isConditionFailed, makeDb, QueryCommand, ScanCommand } from './db';
import type { BaseEnv } from './env';

/** One DynamoDB client per container (lambdas/lib/db.ts), pointed at DynamoDB Local in local mode. */
export function makeDocumentClient(env: BaseEnv): Db {
  return env.APP_MODE === 'local' && env.DYNAMODB_ENDPOINT
    ? makeDb({
        endpoint: env.DYNAMODB_ENDPOINT,
        region: env.AWS_REGION,
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      })
    : makeDb({ region: env.AWS_REGION });
}

type Item = Record<string, unknown>;
type Page = { Items?: Item[]; LastEvaluatedKey?: Item };

/** Pages of a Query or Scan, each request starting where the last one stopped (LastEvaluatedKey). */
async function* pages(send: (start: Item | undefined) => Promise<Page>): AsyncGenerator<Item[]> {
  let start: Item | undefined;
  do {
    const page = await send(start);
    yield page.Items ?? [];
    start = page.LastEvaluatedKey;
  } while (start);
}

/** Every item a Query matches, read page after page. Use where the result is known to be small. */
export async function queryAll(db: Db, input: QueryCommandInput): Promise<Item[]> {
  const items: Item[] = [];
  for await (const page of pages((start) => db.send(new QueryCommand({ ...input, ExclusiveStartKey: start })))) {
    items.push(...page);
  }
  return items;
}

/** The pages of a Scan (or of one segment of a parallel scan), to handle one page at a time. */
export function scanPages(db: Db, input: ScanCommandInput): AsyncGenerator<Item[]> {
  return pages((start) => db.send(new ScanCommand({ ...input, ExclusiveStartKey: start })));
}

/**
 * Awaits a conditional write and resolves to undefined, instead of rejecting, when its
 * ConditionExpression was false (the write was not needed, or someone else made it).
 * Any other error rejects as before. `if (!(await ignoreConditionFailed(db.send(put))))`
 * reads "if the condition failed".
 */
export async function ignoreConditionFailed<T>(write: Promise<T>): Promise<T | undefined> {
  try {
    return await write;
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    return undefined;
  }
}

/**
 * Retries a write outside a transaction while a transaction holds the item
 * (TransactionConflictException), with growing random waits, up to 10 times.
 */
export async function retryConflicts<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if ((error as { name?: unknown } | undefined)?.name !== 'TransactionConflictException' || attempt >= 10) {
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20 * 2 ** attempt, 1000)));
    }
  }
}

/** BatchGetItem's limit of keys per request. */
const BATCH_GET_KEYS = 100;

/**
 * The items of `keys` that exist (in no particular order), 100 keys a request, asking
 * again for the keys DynamoDB did not get to (throttling, or its 16 MB limit).
 */
export async function batchGetAll(
  db: Db,
  tableName: string,
  keys: readonly Item[],
  consistent = false,
): Promise<Item[]> {
  const found: Item[] = [];
  const chunks: Item[][] = [];
  for (let i = 0; i < keys.length; i += BATCH_GET_KEYS) chunks.push(keys.slice(i, i + BATCH_GET_KEYS));
  await Promise.all(
    chunks.map(async (chunk) => {
      let pending: Item[] | undefined = chunk;
      for (let attempt = 0; pending && pending.length > 0; attempt++) {
        if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 25 * 2 ** attempt)));
        const result: BatchGetCommandOutput = await db.send(
          new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: consistent } } }),
        );
        found.push(...(result.Responses?.[tableName] ?? []));
        pending = result.UnprocessedKeys?.[tableName]?.Keys;
      }
    }),
  );
  return found;
}
