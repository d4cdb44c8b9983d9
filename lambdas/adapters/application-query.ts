import { type Db, QueryCommand } from '../lib/db';
import * as v from 'valibot';
import { applicationStatuses, type ApplicationStatus } from '../../rules/application';
import { istEndOfDay, istStartOfDay, parseDate } from '../../rules/ist';
import {
  allApplications,
  campaignDistrictStatus,
  campaignStatus,
  districtStatus,
  listingIndexes,
  sortKeyName,
  submittedSortPattern,
} from './application-items';

// The one query planner of the applications table's listings: the dashboard's page
// (application-list.ts), the report's raw rows and the exports (application-rows.ts).
// The index follows the filters: by-submitted (no filter), by-status (some statuses),
// by-district (some districts, all statuses), by-district-status (a few pairs), and for
// a campaign (issue 19) by-campaign, by-campaign-status or by-campaign-district-status; the IST
// days are a key condition on `submitted_sort` (`<ISO time>#<id>`). Several keys are
// merged by sort key (k-way merge), each read lazily in small pages, so that a page
// reads about as many items as it returns plus a few per key. One cursor format for
// all: the last row's sort key (and, for the report, its total).

/** One index key to read, newest first. */
interface Stream {
  readonly index: string;
  readonly keyName: string;
  readonly keyValue: string;
  /** Statuses to keep when the index does not narrow them (FilterExpression). */
  readonly statuses?: readonly ApplicationStatus[];
}

interface Selection {
  /** Undefined: any status, unfiltered. Otherwise never empty. */
  readonly statuses?: readonly ApplicationStatus[];
  /** Empty: every district (and Unknown). */
  readonly districts: readonly string[];
  /** A campaign's id: only the applications that came through it (issue 19). */
  readonly campaign?: string | null;
}

/** Pairs beyond which by-district + a status filter beats one query per pair. */
const MAX_PAIR_KEYS = 24;

export function planStreams({ statuses, districts, campaign }: Selection): Stream[] {
  if (campaign) return planCampaignStreams(campaign, statuses, districts);
  const allStatuses = !statuses || statuses.length === applicationStatuses.length;
  // Statuses outside the selection never show: where the index does not narrow them, filter.
  const keep = statuses && { statuses };
  const { submitted, status, district, districtStatus: pair } = listingIndexes;
  const stream = (index: typeof submitted, keyValue: string, filter?: typeof keep): Stream => ({
    index: index.indexName,
    keyName: index.keyName,
    keyValue,
    ...filter,
  });
  if (districts.length === 0) {
    if (allStatuses) return [stream(submitted, allApplications, keep)];
    return statuses.map((s) => stream(status, s));
  }
  if (!allStatuses && districts.length * statuses.length <= MAX_PAIR_KEYS) {
    return districts.flatMap((d) => statuses.map((s) => stream(pair, districtStatus(d, s))));
  }
  return districts.map((d) => stream(district, d, keep));
}

/**
 * A campaign's applications, always from keys that hold only what the filters select
 * (never a FilterExpression: a campaign's rare status would read its every application):
 * the campaign (by-campaign), one key per status (by-campaign-status), or one per
 * district and status (by-campaign-district-status; a coordinator's 6 districts and
 * every status are 24 keys, the most a page merges in practice).
 */
function planCampaignStreams(
  campaign: string,
  statuses: readonly ApplicationStatus[] | undefined,
  districts: readonly string[],
): Stream[] {
  const { campaign: byCampaign, campaignStatus: byStatus, campaignDistrictStatus: byPair } = listingIndexes;
  const stream = (index: typeof byCampaign, keyValue: string): Stream => ({
    index: index.indexName,
    keyName: index.keyName,
    keyValue,
  });
  const allStatuses = !statuses || statuses.length === applicationStatuses.length;
  const selected = statuses ?? applicationStatuses;
  if (districts.length === 0) {
    if (allStatuses) return [stream(byCampaign, campaign)];
    return selected.map((s) => stream(byStatus, campaignStatus(campaign, s)));
  }
  return districts.flatMap((d) => selected.map((s) => stream(byPair, campaignDistrictStatus(campaign, d, s))));
}

interface SortKeyBounds {
  readonly low: string;
  readonly high: string;
}

/** Sort key bounds of the filters' IST days ('YYYY-MM-DD'), both included. */
export function sortKeyBounds(days: { from?: string | null; to?: string | null }): SortKeyBounds {
  const from = days.from ? parseDate(days.from) : undefined;
  const to = days.to ? parseDate(days.to) : undefined;
  // '#' sorts before every character of an id, '\uffff' after.
  return {
    low: from ? istStartOfDay(from).toISOString() : '0',
    high: to ? `${istEndOfDay(to).toISOString()}#\uffff` : '\uffff',
  };
}

const cursorSchema = v.object({
  v: v.literal(1),
  /** The last row's sort key: only one an application could have. */
  after: v.pipe(v.string(), v.maxLength(400), v.regex(submittedSortPattern)),
  /** The report's total, counted on its first page. */
  total: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(0))),
});
type ListingCursor = v.InferOutput<typeof cursorSchema>;

export function encodeCursor(cursor: ListingCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

/** The cursor, or undefined when it is not one of ours. */
export function decodeCursor(value: string): ListingCursor | undefined {
  try {
    const parsed = v.safeParse(cursorSchema, JSON.parse(Buffer.from(value, 'base64url').toString('utf8')));
    return parsed.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
}

interface ReadOptions {
  /** Attributes to read (besides the sort key); all when undefined. */
  readonly projection?: readonly string[];
  /** Items per query of one key; by default about the page divided among the keys. */
  readonly chunk?: number;
}

interface MergedPage {
  readonly items: Record<string, unknown>[];
  /** Sort key of the last item, when more follow. */
  readonly last?: string;
  /** Items DynamoDB read (ScannedCount), for the benchmark. */
  readonly scanned: number;
}

function streamQuery(tableName: string, stream: Stream, bounds: SortKeyBounds, options: ReadOptions) {
  const names: Record<string, string> = { '#key': stream.keyName, '#sort': sortKeyName };
  const values: Record<string, unknown> = { ':key': stream.keyValue, ':low': bounds.low, ':high': bounds.high };
  const filters: string[] = [];
  if (stream.statuses) {
    names['#status'] = 'application_status';
    stream.statuses.forEach((s, i) => (values[`:s${i}`] = s));
    filters.push(`#status IN (${stream.statuses.map((_, i) => `:s${i}`).join(', ')})`);
  }
  const projection = options.projection && [...options.projection, sortKeyName];
  projection?.forEach((p, i) => (names[`#p${i}`] = p));
  return {
    TableName: tableName,
    IndexName: stream.index,
    KeyConditionExpression: '#key = :key AND #sort BETWEEN :low AND :high',
    ...(filters.length > 0 && { FilterExpression: filters.join(' AND ') }),
    ...(projection && { ProjectionExpression: projection.map((_, i) => `#p${i}`).join(', ') }),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: false,
  };
}

/** A lazily read, newest-first sequence of one index key. */
function openStream(db: Db, input: ReturnType<typeof streamQuery>, chunk: number, counter: { scanned: number }) {
  const buffer: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  let done = false;
  const fill = async () => {
    while (buffer.length === 0 && !done) {
      const page = await db.send(new QueryCommand({ ...input, Limit: chunk, ExclusiveStartKey: start }));
      counter.scanned += page.ScannedCount ?? 0;
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
}

/**
 * One page of the streams' items merged newest first: at most `limit`, after the item
 * whose sort key is `after` (the cursor) when given.
 */
export async function readPage(
  db: Db,
  tableName: string,
  plan: { streams: readonly Stream[]; bounds: SortKeyBounds },
  page: { limit: number; after?: string },
  options: ReadOptions = {},
): Promise<MergedPage> {
  const { streams, bounds } = plan;
  const { limit, after } = page;
  const counter = { scanned: 0 };
  // Inclusive bound: the item equal to the cursor is skipped below.
  const high = after !== undefined && after < bounds.high ? after : bounds.high;
  // A cursor from before the range (another range's), or an empty range: nothing is left in it.
  if (high < bounds.low) return { items: [], scanned: 0 };
  const chunk = options.chunk ?? Math.max(2, Math.ceil((limit + 1) / streams.length) + 1);
  const sources = streams.map((s) =>
    openStream(db, streamQuery(tableName, s, { low: bounds.low, high }, options), chunk, counter),
  );
  const items: Record<string, unknown>[] = [];
  let last: string | undefined;
  for (;;) {
    const heads = await Promise.all(sources.map((s) => s.head()));
    let best = -1;
    for (let i = 0; i < heads.length; i++) {
      const sort = heads[i]?.[sortKeyName];
      if (typeof sort !== 'string') continue;
      if (best < 0 || sort > String(heads[best]![sortKeyName])) best = i;
    }
    if (best < 0) return { items, scanned: counter.scanned }; // every key read to its end
    const item = sources[best]!.take()!;
    const sort = String(item[sortKeyName]);
    if (sort === after) continue;
    if (items.length === limit) return { items, last, scanned: counter.scanned }; // an item follows this page
    items.push(item);
    last = sort;
  }
}
