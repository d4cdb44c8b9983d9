import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { applicationStatuses, type ApplicationStatus } from '../../rules/application';
import { istEndOfDay, istStartOfDay, parseDate } from '../../rules/ist';
import type { ReportFilters, ReportRow } from '../../rules/report';
import { submittedSortPattern } from './applications';

// The raw rows of a report, newest first, from the applications table's listing
// indexes (sort key `submitted_sort` = `${submitted_at}#${id}`). The index follows the
// filters: by-submitted (no filter), by-status (some statuses), by-district (some
// districts, all statuses), by-district-status (a few pairs). Several keys are merged
// by sort key (k-way merge), each read lazily in small pages, so that one page reads
// about `limit` items plus a few per key. The cursor is the last row's sort key.

interface Stream {
  readonly index: string;
  readonly keyName: string;
  readonly keyValue: string;
  /** Statuses to keep when the index does not narrow them (FilterExpression). */
  readonly statuses?: readonly ApplicationStatus[];
}

/** Pairs beyond which by-district + a status filter beats one query per pair. */
const MAX_PAIR_KEYS = 24;

export function planStreams(filters: ReportFilters): Stream[] {
  const allStatuses = filters.statuses.length === applicationStatuses.length;
  // Statuses outside the four never count in a report: keep them out of its rows too.
  const keep = { statuses: filters.statuses };
  if (filters.districts.length === 0) {
    if (allStatuses) return [{ index: 'by-submitted', keyName: 'list_pk', keyValue: 'APP', ...keep }];
    return filters.statuses.map((s) => ({ index: 'by-status', keyName: 'application_status', keyValue: s }));
  }
  if (!allStatuses && filters.districts.length * filters.statuses.length <= MAX_PAIR_KEYS) {
    return filters.districts.flatMap((d) =>
      filters.statuses.map((s) => ({ index: 'by-district-status', keyName: 'district_status', keyValue: `${d}#${s}` })),
    );
  }
  return filters.districts.map((d) => ({ index: 'by-district', keyName: 'revenue_district', keyValue: d, ...keep }));
}

/** Sort key bounds of the filters' days (IST), both included. */
export function sortKeyBounds(filters: ReportFilters): { low: string; high: string } {
  const from = filters.from ? parseDate(filters.from) : undefined;
  const to = filters.to ? parseDate(filters.to) : undefined;
  return {
    low: from ? istStartOfDay(from).toISOString() : '0',
    high: to ? `${istEndOfDay(to).toISOString()}#\uffff` : '\uffff',
  };
}

const cursorSchema = z.object({
  v: z.literal(1),
  /** The last row's sort key: only one an application could have. */
  after: z.string().max(400).regex(submittedSortPattern),
  total: z.number().int().min(0),
});
export type RowsCursor = z.infer<typeof cursorSchema>;

export function encodeCursor(cursor: RowsCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

/** The cursor, or undefined when it is not one of ours. */
export function decodeCursor(value: string): RowsCursor | undefined {
  try {
    const parsed = cursorSchema.safeParse(JSON.parse(Buffer.from(value, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

function toRow(item: Record<string, unknown>): ReportRow {
  return {
    id: str(item.id),
    name: str(item.name),
    phone_number: str(item.phone_number),
    revenue_district: typeof item.revenue_district === 'string' ? item.revenue_district : null,
    application_status: str(item.application_status),
    submitted_at: str(item.submitted_at),
  };
}

export interface RowsPage {
  readonly items: ReportRow[];
  /** Sort key of the last row, when more rows follow. */
  readonly last?: string;
}

export interface ApplicationRows {
  page(filters: ReportFilters, limit: number, after?: string): Promise<RowsPage>;
}

export function makeApplicationRows(db: DynamoDBDocumentClient, tableName: string): ApplicationRows {
  const projection = [
    'id',
    'name',
    'phone_number',
    'revenue_district',
    'application_status',
    'submitted_at',
    'submitted_sort',
  ];

  /** A lazily read, newest-first sequence of one index key. */
  const open = (stream: Stream, low: string, high: string, chunk: number) => {
    const buffer: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    let done = low > high;
    const fill = async () => {
      while (buffer.length === 0 && !done) {
        const filter = stream.statuses
          ? {
              FilterExpression: `#status IN (${stream.statuses.map((_, i) => `:s${i}`).join(', ')})`,
              statusValues: Object.fromEntries(stream.statuses.map((s, i) => [`:s${i}`, s])),
            }
          : undefined;
        const page = await db.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: stream.index,
            KeyConditionExpression: '#key = :key AND submitted_sort BETWEEN :low AND :high',
            ...(filter && { FilterExpression: filter.FilterExpression }),
            ProjectionExpression: projection.map((_, i) => `#p${i}`).join(', '),
            ExpressionAttributeNames: {
              '#key': stream.keyName,
              ...(filter && { '#status': 'application_status' }),
              ...Object.fromEntries(projection.map((p, i) => [`#p${i}`, p])),
            },
            ExpressionAttributeValues: { ':key': stream.keyValue, ':low': low, ':high': high, ...filter?.statusValues },
            ScanIndexForward: false,
            Limit: chunk,
            ExclusiveStartKey: start,
          }),
        );
        buffer.push(...(page.Items ?? []));
        start = page.LastEvaluatedKey;
        done = start === undefined;
      }
    };
    return {
      async head() {
        await fill();
        return buffer[0];
      },
      take() {
        return buffer.shift();
      },
    };
  };

  return {
    async page(filters, limit, after) {
      const streams = planStreams(filters);
      const bounds = sortKeyBounds(filters);
      // Inclusive bound: the row equal to the cursor is skipped below.
      const high = after !== undefined && after < bounds.high ? after : bounds.high;
      // A cursor from before the range (another range's): nothing is left in this one.
      if (high < bounds.low) return { items: [] };
      const chunk = Math.max(2, Math.ceil((limit + 1) / streams.length) + 1);
      const sources = streams.map((s) => open(s, bounds.low, high, chunk));
      const items: ReportRow[] = [];
      let last: string | undefined;
      for (;;) {
        const heads = await Promise.all(sources.map((s) => s.head()));
        let best = -1;
        for (let i = 0; i < heads.length; i++) {
          const sort = heads[i]?.submitted_sort;
          if (typeof sort !== 'string') continue;
          if (best < 0 || sort > String(heads[best]!.submitted_sort)) best = i;
        }
        if (best < 0) return { items }; // every key read to its end
        const item = sources[best]!.take()!;
        const sort = String(item.submitted_sort);
        if (sort === after) continue;
        if (items.length === limit) return { items, last }; // a row follows this page
        items.push(toRow(item));
        last = sort;
      }
    },
  };
}
