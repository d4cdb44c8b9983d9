import { type Db } from '../../lambdas/lib/db';
import type { DynamoDBStreamHandler } from 'aws-lambda';
import { inject } from 'vitest';
import { makeRollupsWriter } from '../../lambdas/adapters/rollups-writer';
import type { ApiAdapter } from '../../local/api-adapter';
import { ensureTables, localDb, localDynamoClient, localTableNames } from '../../local/dynamodb';
import { startStreamPoller, type StreamPoller } from '../../local/stream-poller';
import { noSearchIndex } from './no-search-index';
import { startTierApi } from './tier-api';

// The staff API on fresh applications and rollups tables, the rollups fed by the local
// stream poller into the real consumer (as in rollups.test.ts): what a district scope
// test needs to see the same applications in lists, rows and report figures. The audit
// and rate-limit tables stay the tier's.

export interface ScopeTier {
  readonly api: ApiAdapter;
  readonly db: Db;
  readonly names: ReturnType<typeof localTableNames>;
  readonly poller: StreamPoller;
  /** A staff request with a bearer token; answers the status and the parsed body. */
  call<T = Record<string, unknown>>(
    token: string,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }>;
  stop(): Promise<void>;
}

export async function startScopeTier(prefix: string, options = { search: true }): Promise<ScopeTier> {
  const endpoint = inject('dynamoDbEndpoint');
  const names = localTableNames(`${prefix}-${Date.now().toString(36)}`);
  const client = localDynamoClient(endpoint);
  await ensureTables(client, names);
  const db = localDb(endpoint);
  const api = await startTierApi({
    TABLE_APPLICATIONS: names.applications,
    TABLE_ROLLUPS: names.rollups,
    TABLE_SEARCH: names.search,
    POWERTOOLS_LOG_LEVEL: 'ERROR',
  });
  const stream = await import('../../lambdas/handlers/applications-stream');
  // A tier that never searches keeps no search index (see no-search-index.ts).
  const consume: DynamoDBStreamHandler = options.search
    ? stream.handler
    : stream.makeHandler({
        rollups: makeRollupsWriter(db, names.rollups),
        search: noSearchIndex,
        clock: () => new Date(),
      });
  const poller = await startStreamPoller({
    endpoint,
    tableName: names.applications,
    handler: async (event, context) => (await consume(event, context, () => undefined)) ?? undefined,
    pollIntervalMs: 100,
  });
  return {
    api,
    db,
    names,
    poller,
    async call<T>(token: string, method: string, path: string, body?: unknown) {
      const response = await fetch(`${api.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as T };
    },
    async stop() {
      await poller.stop();
      await api.close();
      client.destroy();
    },
  };
}
