import type { BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { BatchGetCommand, type Db } from '../lib/db';
import { parseSearchQuery, type SearchQuery } from '../../rules/search';
import type { ApplicationRow } from '../../rules/staff-api';
import { AppError } from '../lib/http';
import { districtsOf, type ScopedApplicationFilters } from '../lib/scoped-filters';
import { applicationKey, toRow } from './application-items';
import { decodeCursor, encodeCursor, sortKeyBounds } from './application-query';
import { type SearchEntry, type SearchIndex, SearchTooBroadError } from './search-index';

// The dashboard's text search (issue 18): the matching entries come from the search
// index, one key range, whatever the table's size; the filters and the caller's scope
// are applied to them, each application counted once, newest first, so the total is
// exact; only the page's applications are then read, by key. The cursor is the
// listing's (the last row's sort key), so paging works as without a search.

/**
 * Tokens one search may read: a query matching more (one letter of a common first name
 * at a state-wide size) answers SEARCH_TOO_BROAD at once rather than slowly.
 */
const MAX_SEARCH_TOKENS = 20_000;
/** Keys of one BatchGetItem (DynamoDB's limit). */
const BATCH_GET_KEYS = 100;

export interface SearchPage {
  readonly items: ApplicationRow[];
  readonly total: number;
  readonly nextCursor?: string;
  /** Items DynamoDB read (tokens and applications), for the benchmark. */
  readonly scanned: number;
}

/** The query of a filter's text, or the field error the search box shows. */
function searchQueryOf(q: string): SearchQuery {
  const parsed = parseSearchQuery(q);
  if (typeof parsed === 'string') throw new AppError('VALIDATION_FAILED', { fields: { q: parsed } });
  return parsed;
}

/** The entries within the filters and scope, each application once, newest first. */
function selectEntries(entries: readonly SearchEntry[], filters: ScopedApplicationFilters): SearchEntry[] {
  const within = withinFilters(filters);
  const seen = new Set<string>();
  const kept = entries.filter((e) => {
    if (seen.has(e.id)) return false;
    seen.add(e.id);
    return within(e);
  });
  return kept.sort((a, b) => (a.sort < b.sort ? 1 : a.sort > b.sort ? -1 : 0));
}

/** Whether an application (as the index or the table holds it) is within the filters and scope. */
function withinFilters(filters: ScopedApplicationFilters) {
  const districts = new Set(districtsOf(filters));
  const { low, high } = sortKeyBounds(filters);
  return (a: { status: unknown; district?: unknown; sort: string }) =>
    (!filters.status || a.status === filters.status) &&
    (districts.size === 0 || (typeof a.district === 'string' && districts.has(a.district))) &&
    a.sort >= low &&
    a.sort <= high;
}

/** The applications of `ids`, in that order; one erased since it was indexed is left out. */
async function readApplications(db: Db, tableName: string, ids: readonly string[]) {
  const found = new Map<string, Record<string, unknown>>();
  let read = 0;
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += BATCH_GET_KEYS) chunks.push(ids.slice(i, i + BATCH_GET_KEYS));
  await Promise.all(
    chunks.map(async (chunk) => {
      let keys: Record<string, unknown>[] | undefined = chunk.map((id) => ({ pk: applicationKey(id) }));
      for (let attempt = 0; keys && keys.length > 0; attempt++) {
        if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 25 * 2 ** attempt)));
        const result: BatchGetCommandOutput = await db.send(
          new BatchGetCommand({ RequestItems: { [tableName]: { Keys: keys } } }),
        );
        for (const item of result.Responses?.[tableName] ?? []) {
          read += 1;
          found.set(String(item.id), item);
        }
        // Keys DynamoDB did not get to (throttling, or the 16 MB limit) are asked again.
        keys = result.UnprocessedKeys?.[tableName]?.Keys;
      }
    }),
  );
  const items = ids.map((id) => found.get(id)).filter((item) => item !== undefined);
  return { items, read };
}

/** The entries a search matches within the filters and scope: the tokens only, never the applications. */
async function matchingEntries(index: SearchIndex, filters: ScopedApplicationFilters & { readonly q: string }) {
  const query = searchQueryOf(filters.q);
  try {
    const found = await index.find(query, MAX_SEARCH_TOKENS);
    return { matching: selectEntries(found.entries, filters), scanned: found.scanned };
  } catch (error) {
    if (error instanceof SearchTooBroadError) throw new AppError('SEARCH_TOO_BROAD');
    throw error;
  }
}

/** The exact number of applications a search matches (an export's total). */
export async function countSearch(index: SearchIndex, filters: ScopedApplicationFilters & { readonly q: string }) {
  return (await matchingEntries(index, filters)).matching.length;
}

export async function searchApplications(
  db: Db,
  tables: { readonly applications: string },
  index: SearchIndex,
  filters: ScopedApplicationFilters & { readonly q: string },
  page: { pageSize: number; cursor?: string },
): Promise<SearchPage> {
  const cursor = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
  if (page.cursor !== undefined && !cursor) throw new AppError('VALIDATION_FAILED', { fields: { cursor: 'INVALID' } });
  const { matching, scanned } = await matchingEntries(index, filters);
  const after = cursor?.after;
  const rest = after === undefined ? matching : matching.filter((e) => e.sort < after);
  const onPage = rest.slice(0, page.pageSize);
  const { items, read } = await readApplications(
    db,
    tables.applications,
    onPage.map((e) => e.id),
  );
  // The index follows the table a moment later: an application moved out of the filters
  // (or out of the caller's districts) since it was indexed is not shown. The client
  // reads again while a page is short of its total (use-applications.ts).
  const within = withinFilters(filters);
  const current = items.filter((item) =>
    within({ status: item.application_status, district: item.revenue_district, sort: String(item.submitted_sort) }),
  );
  const last = onPage.at(-1);
  return {
    items: current.map(toRow),
    total: matching.length,
    scanned: scanned + read,
    ...(rest.length > page.pageSize && last && { nextCursor: encodeCursor({ v: 1, after: last.sort }) }),
  };
}
