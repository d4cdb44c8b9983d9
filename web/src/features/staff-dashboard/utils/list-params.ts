import { type ApplicationStatus, applicationStatuses } from '../../../../../rules/application-values';
import { districts } from '../../../../../rules/districts';
import { parseDate } from '../../../../../rules/ist';
import { type ListRequest, pageSizes } from '../../../../../rules/staff-api';

// The dashboard's state in the address bar, so that a link can be shared and Back
// works: filters, rows per page, the page number and the cursor of the current page.
// Whatever does not parse is dropped, never an error. The search term is the exception:
// names and phone numbers would sit in CloudFront's logs with every page load of the
// address, so it lives in the history entry's state (Back and reload keep it; a shared
// link does not carry it).

export type PageSize = (typeof pageSizes)[number];
const DEFAULT_PAGE_SIZE: PageSize = 10;

export interface ListFilters {
  readonly q?: string;
  readonly status?: ApplicationStatus;
  readonly district?: string;
  readonly from?: string;
  readonly to?: string;
  /** A campaign's id (issue 19). */
  readonly campaign?: string;
}

export interface ListParams {
  readonly filters: ListFilters;
  readonly pageSize: PageSize;
  /** 1-based. */
  readonly page: number;
  /** The API's cursor for this page; absent on page 1. */
  readonly cursor?: string;
}

export const filterKeys = ['q', 'status', 'district', 'from', 'to', 'campaign'] as const;
/** The filters the address bar holds: all but the search term. */
const addressKeys = filterKeys.filter((key) => key !== 'q');

const districtNames = new Set(districts.map((d) => d.en));
const isStatus = (value: string): value is ApplicationStatus =>
  (applicationStatuses as readonly string[]).includes(value);

/** Clean filters: trimmed search, known status and district, real days in order. */
export function cleanFilters(
  raw: Partial<Record<(typeof filterKeys)[number], string | null | undefined>>,
): ListFilters {
  const q = raw.q?.trim().slice(0, 100);
  const status = raw.status && isStatus(raw.status) ? raw.status : undefined;
  const district = raw.district && districtNames.has(raw.district) ? raw.district : undefined;
  let from = raw.from && parseDate(raw.from) ? raw.from : undefined;
  let to = raw.to && parseDate(raw.to) ? raw.to : undefined;
  const campaign = raw.campaign && /^[A-Za-z0-9_-]{1,64}$/.test(raw.campaign) ? raw.campaign : undefined;
  if (from && to && from > to) {
    from = undefined;
    to = undefined;
  }
  return {
    ...(q && { q }),
    ...(status && { status }),
    ...(district && { district }),
    ...(from && { from }),
    ...(to && { to }),
    ...(campaign && { campaign }),
  };
}

/** The history entry's state: the search term and the cursors of earlier pages. */
export interface ListHistoryState {
  readonly q?: string;
  readonly cursors?: string[];
}

/** The search term kept in the history entry's state; never read from the address. */
function readSearchTerm(state: unknown): string | undefined {
  if (!state || typeof state !== 'object' || !('q' in state) || typeof state.q !== 'string') return undefined;
  return state.q;
}

export function parseListParams(search: URLSearchParams, state?: unknown): ListParams {
  const filters = cleanFilters({
    ...Object.fromEntries(addressKeys.map((key) => [key, search.get(key)])),
    q: readSearchTerm(state),
  });
  const size = Number(search.get('size'));
  const pageSize = (pageSizes as readonly number[]).includes(size) ? (size as PageSize) : DEFAULT_PAGE_SIZE;
  const cursor = search.get('cursor') ?? undefined;
  const pageNumber = Number(search.get('page'));
  // A later page needs its cursor; without one the list starts again.
  if (!cursor || cursor.length > 2000 || !Number.isInteger(pageNumber) || pageNumber < 2) {
    return { filters, pageSize, page: 1 };
  }
  return { filters, pageSize, page: pageNumber, cursor };
}

/** The address bar's query for the state: no search term, defaults left out, keys in a stable order. */
export function listParamsToSearch(params: ListParams): URLSearchParams {
  const search = new URLSearchParams();
  for (const key of addressKeys) {
    const value = params.filters[key];
    if (value) search.set(key, value);
  }
  if (params.pageSize !== DEFAULT_PAGE_SIZE) search.set('size', String(params.pageSize));
  if (params.page > 1 && params.cursor) {
    search.set('page', String(params.page));
    search.set('cursor', params.cursor);
  }
  return search;
}

/** The body of POST /api/admin/applications/search (the page and the export): empty filters left out. */
export function listRequest(query: {
  filters: ListFilters;
  pageSize: number;
  cursor?: string;
  exportId?: string;
}): ListRequest {
  const filters: Record<string, string> = {};
  for (const key of filterKeys) {
    const value = query.filters[key];
    if (value) filters[key] = value;
  }
  return {
    filters,
    pageSize: query.pageSize,
    ...(query.cursor && { cursor: query.cursor }),
    ...(query.exportId && { exportId: query.exportId }),
  };
}

/** Pages for a total: at least one, so that an empty list reads "Page 1 of 1". */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/**
 * Cursors of the pages before the current one, kept in the history entry's state:
 * index 0 is page 1 (no cursor, ''), index n-1 is page n. Opened from a shared link,
 * the entry has none, and Previous starts again from page 1.
 */
export function readCursorStack(state: unknown, page: number): string[] | undefined {
  if (!state || typeof state !== 'object' || !('cursors' in state)) return undefined;
  const cursors: unknown = state.cursors;
  if (!Array.isArray(cursors) || !cursors.every((c): c is string => typeof c === 'string')) return undefined;
  return cursors.length === page - 1 ? cursors : undefined;
}
