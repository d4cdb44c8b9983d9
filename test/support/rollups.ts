import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import type { BatchWriteCommandOutput } from '@aws-sdk/lib-dynamodb';
import { BatchWriteCommand, type Db, DeleteCommand, ScanCommand, UpdateCommand } from '../../lambdas/lib/db';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, DynamoDBRecord } from 'aws-lambda';
import { applicationIdOf, applicationKey } from '../../lambdas/adapters/application-items';
import { localCredentials, localRegion } from '../../local/dynamodb';
import { toLambdaRecord } from '../../local/stream-poller';

// Test data for the report rollups, written from the spec's rules (sections 3 and 5, and
// PRODUCT.md's IST days), not with the code under test. The report recomputed from raw
// items is in rollups-brute.ts.

export const STATUSES = ['pending', 'under_review', 'approved', 'rejected'] as const;
export type Status = (typeof STATUSES)[number];
export const DISTRICTS = [
  'Ariyalur',
  'Chengalpattu',
  'Chennai',
  'Coimbatore',
  'Cuddalore',
  'Dharmapuri',
  'Dindigul',
  'Erode',
  'Kallakurichi',
  'Kancheepuram',
  'Kanniyakumari',
  'Karur',
  'Krishnagiri',
  'Madurai',
  'Mayiladuthurai',
  'Nagapattinam',
  'Namakkal',
  'Nilgiris',
  'Perambalur',
  'Pudukkottai',
  'Ramanathapuram',
  'Ranipet',
  'Salem',
  'Sivaganga',
  'Tenkasi',
  'Thanjavur',
  'Theni',
  'Thoothukudi',
  'Tiruchirappalli',
  'Tirunelveli',
  'Tirupathur',
  'Tiruppur',
  'Tiruvallur',
  'Tiruvannamalai',
  'Tiruvarur',
  'Vellore',
  'Viluppuram',
  'Virudhunagar',
] as const;

/** A request of a signed-in viewer, as API Gateway hands it after the JWT authorizer. */
export function staffEvent(query: Record<string, string> = {}): APIGatewayProxyEventV2WithJWTAuthorizer {
  return {
    version: '2.0',
    routeKey: 'GET /api/admin/reports/summary',
    rawPath: '/api/admin/reports/summary',
    rawQueryString: new URLSearchParams(query).toString(),
    headers: {},
    queryStringParameters: query,
    isBase64Encoded: false,
    requestContext: {
      requestId: 'test',
      authorizer: {
        jwt: { claims: { sub: 'staff', 'cognito:groups': '[viewer]' }, scopes: [] },
        principalId: '',
        integrationLatency: 0,
      },
    },
  } as unknown as APIGatewayProxyEventV2WithJWTAuthorizer;
}

/** The dashboard's list as a viewer asks for it: a POST whose body holds the filters and the search. */
export function listEvent(body: unknown): APIGatewayProxyEventV2WithJWTAuthorizer {
  const { queryStringParameters: _query, ...event } = staffEvent();
  return {
    ...event,
    routeKey: 'POST /api/admin/applications/search',
    rawPath: '/api/admin/applications/search',
    rawQueryString: '',
    body: JSON.stringify(body),
  };
}

/** A small seeded generator (mulberry32): the same data on every run. */
export function randomSource(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!,
    chance: (p: number) => next() < p,
  };
}
export type Random = ReturnType<typeof randomSource>;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const IST_MS = 5.5 * 3600_000;
export const DAY_MS = 86_400_000;

/** 'YYYY-MM-DD' of the IST day of an instant. */
export const istDayOf = (ms: number) => new Date(ms + IST_MS).toISOString().slice(0, 10);
/** The first instant of an IST day. */
export const istMidnight = (day: string) => Date.parse(`${day}T00:00:00.000Z`) - IST_MS;
export const shiftDay = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) + n * DAY_MS).toISOString().slice(0, 10);

/** The stored application item (lambdas/adapters/applications.ts), as imported rows may have it: fields can be missing. */
export function applicationItem(fields: {
  id: string;
  submitted_at: string;
  application_status: Status;
  revenue_district?: string;
  gender?: string;
  date_of_birth?: string;
  is_already_member?: boolean;
  name?: string;
  phone_number?: string;
  member_number?: string;
}): Record<string, unknown> {
  const { id, submitted_at, application_status, revenue_district } = fields;
  return {
    pk: applicationKey(id),
    name: `Applicant ${id}`,
    phone_number: `919${pad(Number.parseInt(id.replace(/\D/g, '').slice(-9) || '0', 10) % 1_000_000_000, 9)}`,
    email: `${id}@example.com`,
    ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)),
    updated_at: submitted_at,
    list_pk: 'APP',
    submitted_sort: `${submitted_at}#${id}`,
    district_status: `${revenue_district ?? 'Unknown'}#${application_status}`,
  };
}

/** A date of birth for an age in years on `today`, shifted by `dayOffset` days (e.g. a birthday tomorrow). */
function birthDateFor(today: string, age: number, dayOffset: number): string {
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const anchor = Date.UTC(y - age, m - 1, d) + dayOffset * DAY_MS;
  return new Date(anchor).toISOString().slice(0, 10);
}

export interface GeneratedSet {
  readonly items: Record<string, unknown>[];
  readonly firstDay: string;
  readonly lastDay: string;
}

/**
 * `count` applications over `days` IST days ending yesterday, in submission order:
 * every district and some without one, every status, missing genders, missing and
 * invalid birth dates, birthdays around today and on 29 February, submissions at the
 * first and last millisecond of an IST day.
 */
export function generateApplications(
  random: Random,
  count: number,
  days: number,
  today: string,
  idPrefix = 'a',
): GeneratedSet {
  const lastDay = shiftDay(today, -1);
  const firstDay = shiftDay(lastDay, -(days - 1));
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const day = shiftDay(firstDay, Math.floor((i * days) / count));
    const start = istMidnight(day);
    const r = random.next();
    const at = r < 0.01 ? start : r < 0.02 ? start + DAY_MS - 1 : start + random.int(0, DAY_MS - 1);
    const dobKind = random.next();
    const age = random.int(14, 70);
    const date_of_birth =
      dobKind < 0.03
        ? undefined
        : dobKind < 0.04
          ? random.pick(['1990-02-30', 'not a date', '15/08/1999', ''])
          : dobKind < 0.07
            ? birthDateFor(today, random.pick([17, 18, 24, 25, 34, 35, 44, 45, 54, 55]), random.int(-2, 2))
            : dobKind < 0.08
              ? `${random.pick([1992, 1996, 2000, 2004, 2008])}-02-29`
              : birthDateFor(today, age, -random.int(0, 364));
    const application_status: Status = random.chance(0.55) ? 'pending' : random.pick(STATUSES);
    items.push(
      applicationItem({
        id: `${idPrefix}${pad(i, 7)}`,
        submitted_at: new Date(at).toISOString(),
        application_status,
        // Most approved ones have a member number (issue 20); some approved have none (imported
        // as approved), and a few others keep one (approved, then moved away). No random draw:
        // the sets stay what they were for a seed.
        ...(((application_status === 'approved' && i % 7 !== 3) || i % 19 === 0) && {
          member_number: `TNSW-2026-${pad(i + 1, 6)}`,
        }),
        revenue_district: random.chance(0.03) ? undefined : random.pick(DISTRICTS),
        gender: random.chance(0.05) ? undefined : random.pick(['Male', 'Female']),
        date_of_birth,
        is_already_member: random.chance(0.02) ? undefined : random.chance(0.3),
      }),
    );
  }
  return { items, firstDay, lastDay };
}

/** Runs `work` over `values`, `concurrency` at a time. */
export async function inParallel<T>(values: readonly T[], concurrency: number, work: (value: T) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, values.length) }, async () => {
      while (next < values.length) await work(values[next++]!);
    }),
  );
}

/** BatchWrite in parallel (DynamoDB Local takes several thousand puts a second this way). */
export async function putAll(db: Db, table: string, items: readonly Record<string, unknown>[], concurrency = 8) {
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  await inParallel(batches, concurrency, async (batch) => {
    let requests: unknown[] | undefined = batch.map((Item) => ({ PutRequest: { Item } }));
    while (requests && requests.length > 0) {
      const result: BatchWriteCommandOutput = await db.send(
        new BatchWriteCommand({ RequestItems: { [table]: requests as never } }),
      );
      requests = result.UnprocessedItems?.[table];
    }
  });
}

/** The member number a test approval gives: unique per application id. */
const memberNumberOf = (item: Record<string, unknown>) =>
  `TNSW-2026-${String(item.id)
    .replace(/[^A-Za-z0-9]/g, '')
    .toUpperCase()}`;

/** A staff status change, as the dashboard makes it (status and the district-status key). */
export async function changeStatus(db: Db, table: string, item: Record<string, unknown>, status: Status) {
  const district = typeof item.revenue_district === 'string' ? item.revenue_district : 'Unknown';
  await db.send(
    new UpdateCommand({
      TableName: table,
      Key: { pk: item.pk },
      // An approval numbers an application that has none yet, as the review's does (issue 20).
      UpdateExpression: `SET application_status = :s, district_status = :ds, updated_at = :u${status === 'approved' ? ', member_number = if_not_exists(member_number, :mn)' : ''}`,
      ExpressionAttributeValues: {
        ':s': status,
        ':ds': `${district}#${status}`,
        ':u': new Date().toISOString(),
        ...(status === 'approved' && { ':mn': memberNumberOf(item) }),
      },
    }),
  );
  if (status === 'approved') item.member_number ??= memberNumberOf(item);
  item.application_status = status;
  item.district_status = `${district}#${status}`;
}

/** A correction of counted fields (as an import run again may make). */
export async function changeFields(
  db: Db,
  table: string,
  item: Record<string, unknown>,
  fields: Record<string, unknown>,
) {
  const names = Object.keys(fields);
  await db.send(
    new UpdateCommand({
      TableName: table,
      Key: { pk: item.pk },
      UpdateExpression: `SET ${names.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#f${i}`, n])),
      ExpressionAttributeValues: Object.fromEntries(names.map((n, i) => [`:v${i}`, fields[n]])),
    }),
  );
  Object.assign(item, fields);
}

export async function erase(db: Db, table: string, item: Record<string, unknown>) {
  await db.send(new DeleteCommand({ TableName: table, Key: { pk: item.pk } }));
}

/** Every application item of the table (a consistent scan). */
export async function scanApplications(db: Db, table: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  await Promise.all(
    Array.from({ length: 4 }, async (_, segment) => {
      let start: Record<string, unknown> | undefined;
      do {
        const page = await db.send(
          new ScanCommand({
            TableName: table,
            Segment: segment,
            TotalSegments: 4,
            ConsistentRead: true,
            ExclusiveStartKey: start,
          }),
        );
        items.push(...(page.Items ?? []).filter((i) => applicationIdOf(String(i.pk)) !== undefined));
        start = page.LastEvaluatedKey;
      } while (start);
    }),
  );
  return items;
}

/** Every record still in the table's stream, shard by shard, as Lambda would be handed them. */
export async function readWholeStream(
  client: DynamoDBClient,
  endpoint: string,
  table: string,
): Promise<DynamoDBRecord[]> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: table }));
  const streamArn = Table!.LatestStreamArn!;
  const streams = new DynamoDBStreamsClient({ endpoint, region: localRegion, credentials: localCredentials });
  try {
    const shards =
      (await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }))).StreamDescription?.Shards ?? [];
    // Parents before children, as the event source mapping reads them.
    const ordered = [...shards].sort((a, b) =>
      (a.SequenceNumberRange?.StartingSequenceNumber ?? '')
        .padStart(40, '0')
        .localeCompare((b.SequenceNumberRange?.StartingSequenceNumber ?? '').padStart(40, '0')),
    );
    const records: DynamoDBRecord[] = [];
    for (const shard of ordered) {
      let iterator = (
        await streams.send(
          new GetShardIteratorCommand({
            StreamArn: streamArn,
            ShardId: shard.ShardId,
            ShardIteratorType: 'TRIM_HORIZON',
          }),
        )
      ).ShardIterator;
      while (iterator) {
        const out = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
        for (const r of out.Records ?? []) records.push(toLambdaRecord(r, streamArn, localRegion));
        if ((out.Records ?? []).length === 0 && !shard.SequenceNumberRange?.EndingSequenceNumber) break; // open shard, read to its end
        iterator = out.NextShardIterator;
      }
    }
    return records;
  } finally {
    streams.destroy();
  }
}
