import { PutCommand, QueryCommand, ScanCommand } from '../../lambdas/lib/db';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { searchApplications } from '../../lambdas/adapters/application-search';
import { type IndexChange, makeSearchIndex, type SearchIndex } from '../../lambdas/adapters/search-index';
import { SEQUENCE_WIDTH } from '../../lambdas/adapters/rollups-keys';
import { ensureTables, localDb, localDynamoClient, localTableNames } from '../../local/dynamodb';
import { applicationItem } from '../support/rollups';

// The search index's writes on DynamoDB Local: a change is applied once, an older one
// never over a newer (a stream batch retried, or replayed after a failure), an erasure
// leaves no token, and two writers racing on one application end with the newer change.

const names = localTableNames(`search-index-${Date.now().toString(36)}`);
const client = localDynamoClient(inject('dynamoDbEndpoint'));
const db = localDb(inject('dynamoDbEndpoint'));
let index: SearchIndex;

const seq = (n: number) => String(n).padStart(SEQUENCE_WIDTH, '0');
const image = (id: string, name: string, status = 'pending') =>
  applicationItem({
    id,
    name,
    phone_number: '919876543210',
    submitted_at: '2026-11-20T10:00:00.000Z',
    application_status: status as 'pending',
    revenue_district: 'Chennai',
  });
const change = (id: string, n: number, img?: Record<string, unknown>): IndexChange => ({
  id,
  seq: seq(n),
  ...(img && { image: img }),
});

/** Ids of the applications a name prefix finds, with their status. */
async function found(prefix: string) {
  const { entries } = await index.find({ kind: 'name', words: [prefix] }, 1000);
  return entries.map((e) => `${e.id}:${e.status}`).sort();
}

async function tokensOf(id: string) {
  const page = await db.send(new ScanCommand({ TableName: names.search, ConsistentRead: true }));
  return (page.Items ?? []).filter((i) => i.id === id).map((i) => `${String(i.pk)} ${String(i.sk).split('#')[0]}`);
}

beforeAll(async () => {
  await ensureTables(client, names);
  index = makeSearchIndex(db, names.search);
});

describe('search index writes', () => {
  it('applies a change once and never an older one over a newer', async () => {
    expect(await index.apply(change('a1', 5, image('a1', 'Kavya Raja')))).toBe('applied');
    expect(await index.apply(change('a1', 5, image('a1', 'Kavya Raja')))).toBe('unchanged');
    expect(await index.apply(change('a1', 3, image('a1', 'Old Name')))).toBe('unchanged');
    expect(await found('kav')).toEqual(['a1:pending']);
    expect(await found('old')).toEqual([]);
    // A newer change: the name's old words go, the new ones and the new status come.
    expect(await index.apply(change('a1', 7, image('a1', 'Kavitha Raja', 'approved')))).toBe('applied');
    expect(await found('kavya')).toEqual([]);
    expect(await found('kavi')).toEqual(['a1:approved']);
    expect((await tokensOf('a1')).sort()).toEqual(['E#a1@example.com ', 'N#k kavitha', 'N#r raja', 'P#3210 456789']);
  });

  it('removes every token of an erased application, and a replayed insert does not bring it back', async () => {
    await index.apply(change('e1', 10, image('e1', 'Selvi Murugan')));
    expect(await found('selvi')).toEqual(['e1:pending']);
    expect(await index.apply(change('e1', 11))).toBe('applied');
    expect(await tokensOf('e1')).toEqual([]);
    expect(await index.apply(change('e1', 10, image('e1', 'Selvi Murugan')))).toBe('unchanged');
    expect(await found('selvi')).toEqual([]);
    const state = await db.send(
      new QueryCommand({
        TableName: names.search,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': 'APP#e1' },
      }),
    );
    // The tombstone: the id in its key, the sequence number, no token, nothing of the person.
    expect(state.Items).toEqual([{ pk: 'APP#e1', sk: 'STATE', seq: seq(11), tokens: [] }]);
  });

  it('settles two writers racing on one application on the newer change', async () => {
    for (let round = 0; round < 10; round++) {
      const id = `race-${round}`;
      const results = await Promise.all([
        index.apply(change(id, 20, image(id, 'Newer Name', 'approved'))),
        index.apply(change(id, 19, image(id, 'Older Name'))),
      ]);
      // The loser of a race says so (the consumer retries it); the older change never lands last.
      for (const r of results) expect(['applied', 'unchanged', 'conflict']).toContain(r);
      if (results[1] === 'conflict')
        expect(await index.apply(change(id, 19, image(id, 'Older Name')))).not.toBe('applied');
      if (results[0] === 'conflict')
        expect(await index.apply(change(id, 20, image(id, 'Newer Name', 'approved')))).toBe('applied');
      expect(await found('newer'), id).toContain(`${id}:approved`);
      expect(await found('older'), id).not.toContain(`${id}:pending`);
    }
  });

  it("never serves a row the table has moved out of the caller's districts since it was indexed", async () => {
    // Indexed in Chennai; the table already says Madurai (a correction the stream has not brought yet).
    await index.apply(change('moved', 30, image('moved', 'Moved Person')));
    const now = { ...image('moved', 'Moved Person'), revenue_district: 'Madurai', district_status: 'Madurai#pending' };
    await db.send(new PutCommand({ TableName: names.applications, Item: now }));
    const chennai = await searchApplications(
      db,
      names,
      index,
      { q: 'moved', districts: ['Chennai'] },
      { pageSize: 10 },
    );
    expect(chennai.items).toEqual([]);
    const everyone = await searchApplications(db, names, index, { q: 'moved' }, { pageSize: 10 });
    expect(everyone.items.map((r) => [r.id, r.revenue_district])).toEqual([['moved', 'Madurai']]);
  });
});
