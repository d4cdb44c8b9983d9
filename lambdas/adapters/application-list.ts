import { type DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { istEndOfDay, istStartOfDay, parseDate } from '../../rules/ist';
import { normalizeSearchQuery } from '../../rules/search';
import { type ApplicationFilters, type ApplicationRow, applicationRowSchema } from '../../rules/staff-api';
import { AppError } from '../lib/http';
import { applicationKey, submittedSortPattern } from './applications';

// Listing applications newest first through the sparse indexes of the applications
// table: the index is chosen by the filters, the date range is a key condition, so a
// page reads about as many items as it returns. Text search is a filter on top, and
// reads what it must.

interface IndexChoice {
  readonly indexName: string;
  readonly partitionName: string;
  readonly partitionValue: string;
}

export function chooseIndex(filters: Pick<ApplicationFilters, 'status' | 'district'>): IndexChoice {
  if (filters.status && filters.district) {
    return {
      indexName: 'by-district-status',
      partitionName: 'district_status',
      partitionValue: `${filters.district}#${filters.status}`,
    };
  }
  if (filters.status)
    return { indexName: 'by-status', partitionName: 'application_status', partitionValue: filters.status };
  if (filters.district)
    return { indexName: 'by-district', partitionName: 'revenue_district', partitionValue: filters.district };
  return { indexName: 'by-submitted', partitionName: 'list_pk', partitionValue: 'APP' };
}

const cursorSchema = z.record(z.string(), z.string().max(300)).refine((k) => Object.keys(k).length <= 4);

export function encodeCursor(key: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/**
 * The start key of the next page, refused unless it is one this listing could have made:
 * every attribute of the index's key, the same partition, and a sort key and item key
 * naming the same application (a hand-made key with empty strings was DynamoDB's
 * ValidationException, a 500).
 */
function decodeCursor(cursor: string, index: IndexChoice): Record<string, string> {
  try {
    const key = cursorSchema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    const expected = ['pk', 'submitted_sort', index.partitionName].sort();
    if (
      JSON.stringify(Object.keys(key).sort()) !== JSON.stringify(expected) ||
      key[index.partitionName] !== index.partitionValue
    ) {
      throw new Error('cursor of another listing');
    }
    const id = submittedSortPattern.exec(key.submitted_sort ?? '')?.[1];
    if (!id || key.pk !== applicationKey(id)) throw new Error('not a listed item');
    return key;
  } catch {
    throw new AppError('VALIDATION_FAILED', { fields: { cursor: 'INVALID' } });
  }
}

/** The query for the filters (without paging), shared by listing and counting. */
export function listingQuery(tableName: string, filters: ApplicationFilters): QueryCommandInput {
  const index = chooseIndex(filters);
  const names: Record<string, string> = { '#p': index.partitionName };
  const values: Record<string, unknown> = { ':p': index.partitionValue };
  let range = '';
  const from = filters.from ? parseDate(filters.from) : undefined;
  const to = filters.to ? parseDate(filters.to) : undefined;
  // submitted_sort is `<ISO time>#<id>`: '#' sorts before every digit, '~' after.
  if (from) values[':from'] = istStartOfDay(from).toISOString();
  if (to) values[':to'] = `${istEndOfDay(to).toISOString()}~`;
  if (from && to) range = ' AND #s BETWEEN :from AND :to';
  else if (from) range = ' AND #s >= :from';
  else if (to) range = ' AND #s <= :to';
  if (range) names['#s'] = 'submitted_sort';
  const query: QueryCommandInput = {
    TableName: tableName,
    IndexName: index.indexName,
    KeyConditionExpression: `#p = :p${range}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: false,
  };
  // A number as the table shows it ('+91 86846 13282') is searched as stored digits.
  const q = filters.q ? normalizeSearchQuery(filters.q) : '';
  if (q) {
    names['#t'] = 'search_text';
    values[':q'] = q;
    query.FilterExpression = 'contains(#t, :q)';
  }
  return query;
}

const internal = ['pk', 'list_pk', 'submitted_sort', 'district_status', 'search_text', 'consent', 'source'];

export function toRow(item: Record<string, unknown>): ApplicationRow {
  const copy = { ...item };
  for (const key of internal) delete copy[key];
  return applicationRowSchema.parse(copy);
}

export interface ListPage {
  readonly items: ApplicationRow[];
  readonly nextCursor?: string;
  /** Items DynamoDB read for this page (ScannedCount), for the benchmark. */
  readonly scanned: number;
}

export async function listApplications(
  db: DynamoDBDocumentClient,
  tableName: string,
  filters: ApplicationFilters,
  page: { pageSize: number; cursor?: string },
): Promise<ListPage> {
  const index = chooseIndex(filters);
  const base = listingQuery(tableName, filters);
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined = page.cursor ? decodeCursor(page.cursor, index) : undefined;
  let scanned = 0;
  let exhausted = false;
  // One query reads one page when there is no text filter; with one, read on until the
  // page is full or the range is exhausted.
  while (items.length < page.pageSize) {
    const result = await db.send(
      new QueryCommand({
        ...base,
        Limit: filters.q ? Math.max(page.pageSize * 4, 200) : page.pageSize - items.length,
        ...(startKey && { ExclusiveStartKey: startKey }),
      }),
    );
    scanned += result.ScannedCount ?? 0;
    items.push(...(result.Items ?? []));
    startKey = result.LastEvaluatedKey;
    if (!startKey) {
      exhausted = true;
      break;
    }
  }
  const pageItems = items.slice(0, page.pageSize);
  const last = pageItems.at(-1);
  const more = items.length > page.pageSize || !exhausted;
  const nextCursor =
    more && last
      ? encodeCursor({
          pk: last.pk,
          submitted_sort: last.submitted_sort,
          [index.partitionName]: last[index.partitionName],
        })
      : undefined;
  return { items: pageItems.map(toRow), scanned, ...(nextCursor && { nextCursor }) };
}

/** Counts matching rows by reading them: only for text search, which rollups cannot answer. */
export async function countApplications(
  db: DynamoDBDocumentClient,
  tableName: string,
  filters: ApplicationFilters,
): Promise<number> {
  const query = listingQuery(tableName, filters);
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db.send(
      new QueryCommand({ ...query, Select: 'COUNT', ...(startKey && { ExclusiveStartKey: startKey }) }),
    );
    count += result.Count ?? 0;
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return count;
}
