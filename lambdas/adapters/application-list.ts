import { type Db } from '../lib/db';
import type { ApplicationRow } from '../../rules/staff-api';
import { AppError } from '../lib/http';
import { districtsOf, type ScopedApplicationFilters } from '../lib/scoped-filters';
import { toRow } from './application-items';
import { decodeCursor, encodeCursor, planStreams, readPage, sortKeyBounds } from './application-query';

// The dashboard's listing, newest first, through the planner of application-query.ts: the
// index is chosen by the filters, the date range is a key condition, so a page reads
// about as many items as it returns. A text search is not a listing: it reads the search
// index (application-search.ts).

/**
 * The plan of the dashboard's filters: one status and one district at most, so one key;
 * a staff member's scope may name several districts, merged by the planner.
 */
function planOf(filters: ScopedApplicationFilters) {
  return {
    streams: planStreams({
      ...(filters.status && { statuses: [filters.status] }),
      districts: districtsOf(filters),
      ...(filters.campaign && { campaign: filters.campaign }),
    }),
    bounds: sortKeyBounds(filters),
  };
}

export interface ListPage {
  readonly items: ApplicationRow[];
  readonly nextCursor?: string;
  /** Items DynamoDB read for this page (ScannedCount), for the benchmark. */
  readonly scanned: number;
}

export async function listApplications(
  db: Db,
  tableName: string,
  filters: ScopedApplicationFilters,
  page: { pageSize: number; cursor?: string },
): Promise<ListPage> {
  const cursor = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
  if (page.cursor !== undefined && !cursor) throw new AppError('VALIDATION_FAILED', { fields: { cursor: 'INVALID' } });
  const read = await readPage(db, tableName, planOf(filters), {
    limit: page.pageSize,
    ...(cursor && { after: cursor.after }),
  });
  return {
    items: read.items.map(toRow),
    scanned: read.scanned,
    ...(read.last !== undefined && { nextCursor: encodeCursor({ v: 1, after: read.last }) }),
  };
}
