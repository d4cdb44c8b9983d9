import * as v from 'valibot';
import { tables } from '../../contracts/table-definitions';
import { applicationStatuses, type ApplicationStatus } from '../../rules/application';
import { ageBuckets, COUNTERS_PER_CELL, genderKeys, memberKeys, NUMBERED_OFFSET } from '../../rules/report';
import {
  type CountedCell,
  type DayCounters,
  dayKey,
  emptyCells,
  isTopKey,
  parseDayKey,
  TOP_COUNTERS,
  type TopRow,
} from '../../rules/report-counters';
import { APPROVED, type BoardEntry, BROUGHT, isBoardKey, parseBoardKey } from '../../rules/report-referrals';

// The report rollups in their table (contracts/table-definitions.ts `rollups`):
//
//   META      META                   which generation is read (gen_current), which is being
//                                    rebuilt (gen_building), and the ageing marker
//                                    (aged_through, aging_to)
//   G#g#DAYS  <status>#<YYYY-MM-DD>  one row per IST day and status: counters c[district][13],
//                                    created zero-filled (COUNTER_BIAS), the same size every row
//   G#g#CDAYS#campaign <status>#<YYYY-MM-DD>  the same day rows of one campaign's
//                                    applications (issue 19), created as the others
//   G#g#TOP   <YYYY-MM-DD>#<campaign> the "Top campaigns" row: counters c[TOP_COUNTERS], one
//                                    per status and district (topIndex), created zero-filled
//                                    (COUNTER_BIAS) as the day rows are; only days a campaign
//                                    had applications have one. Stored sparse (n<i>, added
//                                    to) they grew as more counters turned non-zero, and so
//                                    did the report reading them: 11.8 % from 10,000 to
//                                    100,000 applications. Sparse rows are still read; the
//                                    first write to one replaces it zero-filled, so a stage
//                                    that had them needs `npm run rollups:rebuild`. From
//                                    c[156] on, the same of referred applications (issue 19,
//                                    campaign `~`: through no campaign; report-referrals.ts)
//   G#g#REF#board <referrer id>      a referral board: b brought, a approved (ADD), on the
//                                    rank index (`rank` = pk, sort key a) once a is written
//   G#g#TOTALS TOTALS                all-time count per status; first_day and last_day
//   G#g#APP#id STATE                 what one application is counted as (cell, rev, stream
//                                    sequence); on the birthday index while it counts
//
// Every change of a state and of the counters it moves is one transaction, so the
// counters are always the sum of the states. A rebuild writes a new generation and
// switches gen_current when it is complete. Writers read META once per batch and do not
// check it in their transactions: two transactions holding the same item conflict, and
// every writer holding META would serialise them all. Changes to META are fenced by
// time instead (ROLLUPS_FENCE_SECONDS, longer than a consumer invocation can run).
//
// The table is used by job, one module each: the report reads (rollups-reader.ts), the
// stream's writes (rollups-writer.ts), the ageing marker (rollups-ageing-marker.ts) and
// the rebuild's generations (rollups-generations.ts). This module holds what they share:
// keys, item shapes and the limits of one write.

export const INITIAL_GENERATION = '1';
/** The sparse index of counted states by month-day of birth (the ageing run reads it). */
export const BIRTHDAY_INDEX = tables.rollups.indexes[0].indexName;
/** Stream sequence numbers are decimal strings of up to 40 digits; padded, they compare as strings. */
export const SEQUENCE_WIDTH = 40;
/** An UpdateExpression may be 4 KB: about 120 `c[i][j] = c[i][j] + :v` terms. */
export const MAX_TERMS_PER_UPDATE = 120;
/** TransactWriteItems takes 100 actions. */
export const MAX_TRANSACTION_ITEMS = 100;
/**
 * Counters are stored plus one. DynamoDB numbers are variable-length: 0 takes less room
 * than 1 to 100, which take less than 101 and more. Biased, every counter from 0 to 99
 * is stored in the same room, so a day row keeps its size, and a report its capacity,
 * as counts grow (up to about a million applications over 120 days).
 */
export const COUNTER_BIAS = 1;

export const metaKey = { pk: 'META', sk: 'META' } as const;
export const daysPk = (gen: string) => `G#${gen}#DAYS`;
export const totalsKey = (gen: string) => ({ pk: `G#${gen}#TOTALS`, sk: 'TOTALS' });
export const campaignDaysPk = (gen: string, campaign: string) => `G#${gen}#CDAYS#${campaign}`;
export const topPk = (gen: string) => `G#${gen}#TOP`;
/** A referral board's partition (issue 19): sort key the referrer's application id. */
export const boardPk = (gen: string, board: string) => `G#${gen}#REF#${board}`;
/** The boards' rank index: partition the board, sort key the approved count. */
export const RANK_INDEX = tables.rollups.indexes[1].indexName;
export const stateKey = (gen: string, id: string) => ({ pk: `G#${gen}#APP#${id}`, sk: 'STATE' });
/** Every item of a generation has a partition key that starts so. */
export const generationPrefix = (gen: string) => `G#${gen}#`;
/** The partition keys of a generation's states start so. */
export const statePrefix = (gen: string) => `G#${gen}#APP#`;
/** Birthday index partition: generation and month-day of birth. */
export const birthdayPk = (gen: string, birthDate: string) => `G#${gen}#${birthDate.slice(5)}`;

export interface RollupsMeta {
  readonly current: string;
  readonly building?: string;
  /** Every counted age bucket is right as of this IST day or later. */
  readonly agedThrough: string;
  /** An ageing run toward this day is under way (or stopped half-way). */
  readonly agingTo?: string;
}

/** Generations that receive changes: the one read, and the one being rebuilt. */
export const activeGenerations = (meta: RollupsMeta): string[] =>
  meta.building && meta.building !== meta.current ? [meta.current, meta.building] : [meta.current];

/** What an application is counted as in one generation. */
export interface RollupState {
  readonly id: string;
  /** Incremented by every write; writers condition on the value they read. */
  readonly rev: number;
  /** Padded stream sequence number of the last record applied. */
  readonly seq?: string;
  /** Absent: counts nothing (erased, or not countable). */
  readonly cell?: CountedCell;
  /** The day the age bucket was computed for. */
  readonly ageDay?: string;
}

export interface Totals {
  readonly byStatus: Record<ApplicationStatus, number>;
  readonly firstDay?: string;
  readonly lastDay?: string;
}

const stateItemSchema = v.object({
  id: v.string(),
  rev: v.pipe(v.number(), v.safeInteger()),
  seq: v.optional(v.string()),
  day: v.optional(v.string()),
  status: v.optional(v.picklist(applicationStatuses)),
  district: v.optional(v.string()),
  gender: v.optional(v.picklist(genderKeys)),
  member: v.optional(v.picklist(memberKeys)),
  age: v.optional(v.picklist(ageBuckets)),
  age_day: v.optional(v.string()),
  birth_date: v.optional(v.string()),
  campaign: v.optional(v.string()),
  referrer: v.optional(v.string()),
  numbered: v.optional(v.boolean()),
});

export function parseState(item: Record<string, unknown>): RollupState {
  const s = v.parse(stateItemSchema, item);
  const cell: CountedCell | undefined =
    s.day && s.status && s.district && s.gender && s.member && s.age
      ? {
          day: s.day,
          status: s.status,
          district: s.district,
          gender: s.gender,
          member: s.member,
          age: s.age,
          ...(s.birth_date && { birthDate: s.birth_date }),
          ...(s.campaign && { campaign: s.campaign }),
          ...(s.referrer && { referrer: s.referrer }),
          ...(s.numbered && { numbered: true as const }),
        }
      : undefined;
  return {
    id: s.id,
    rev: s.rev,
    ...(s.seq && { seq: s.seq }),
    ...(cell && { cell }),
    ...(s.age_day && { ageDay: s.age_day }),
  };
}

export function stateItem(gen: string, state: RollupState): Record<string, unknown> {
  const { cell } = state;
  return {
    ...stateKey(gen, state.id),
    id: state.id,
    rev: state.rev,
    ...(state.seq && { seq: state.seq }),
    ...(cell && {
      day: cell.day,
      status: cell.status,
      district: cell.district,
      gender: cell.gender,
      member: cell.member,
      age: cell.age,
      ...(state.ageDay && { age_day: state.ageDay }),
      ...(cell.campaign && { campaign: cell.campaign }),
      ...(cell.referrer && { referrer: cell.referrer }),
      ...(cell.numbered && { numbered: true }),
      // Sparse index: only counted states with a valid date of birth can change bucket.
      ...(cell.birthDate && { birth_date: cell.birthDate, birthday: birthdayPk(gen, cell.birthDate) }),
    }),
  };
}

const metaItemSchema = v.object({
  gen_current: v.string(),
  gen_building: v.optional(v.string()),
  aged_through: v.string(),
  aging_to: v.optional(v.string()),
});

export function parseMeta(item: Record<string, unknown>): RollupsMeta {
  const m = v.parse(metaItemSchema, item);
  return {
    current: m.gen_current,
    agedThrough: m.aged_through,
    ...(m.gen_building && { building: m.gen_building }),
    ...(m.aging_to && { agingTo: m.aging_to }),
  };
}

const numberOr0 = v.fallback(v.number(), 0);

/** The totals item; absent, every count is 0. */
export function parseTotals(item: Record<string, unknown> | undefined): Totals {
  const byStatus = Object.fromEntries(applicationStatuses.map((s) => [s, v.parse(numberOr0, item?.[s])])) as Record<
    ApplicationStatus,
    number
  >;
  return {
    byStatus,
    ...(typeof item?.first_day === 'string' && { firstDay: item.first_day }),
    ...(typeof item?.last_day === 'string' && { lastDay: item.last_day }),
  };
}

const cellsSchema = v.array(v.array(v.number()));

export function parseDayRow(item: Record<string, unknown>): DayCounters {
  const { status, day } = parseDayKey(String(item.sk));
  return { status, day, cells: v.parse(cellsSchema, item.c).map((row) => row.map((n) => n - COUNTER_BIAS)) };
}

/**
 * A day row's counter `index` (district × COUNTERS_PER_CELL + counter) in its list of
 * lists. The member-number counter (NUMBERED_OFFSET, issue 20) is the last of each list: a
 * row stored before it has none, and `if_not_exists` starts it at zero there (a SET one
 * past a list's end appends), so that rows need no rebuild to take it.
 */
const dayCounterPath = (index: number) => `c[${Math.floor(index / COUNTERS_PER_CELL)}][${index % COUNTERS_PER_CELL}]`;
const dayCounterValue = (index: number) =>
  index % COUNTERS_PER_CELL === NUMBERED_OFFSET
    ? `if_not_exists(${dayCounterPath(index)}, :zero)`
    : dayCounterPath(index);
/** A Top row's counter `index` (topIndex) in its flat list. */
const topCounterPath = (index: number) => `c[${index}]`;

/**
 * `SET c[i][j] = c[i][j] + :vN, ...` for one row's counter changes (at most
 * MAX_TERMS_PER_UPDATE); a Top row's counters are `c[i]`.
 */
export function counterUpdate(
  counters: ReadonlyMap<number, number>,
  pathOf: (index: number) => string = dayCounterPath,
  valueOf: (index: number) => string = pathOf === dayCounterPath ? dayCounterValue : pathOf,
): {
  UpdateExpression: string;
  ExpressionAttributeValues: Record<string, number>;
} {
  const values = new Map<number, string>();
  const terms: string[] = [];
  for (const [index, n] of counters) {
    if (n === 0) continue;
    let name = values.get(n);
    if (!name) values.set(n, (name = `:v${values.size}`));
    terms.push(`${pathOf(index)} = ${valueOf(index)} + ${name}`);
  }
  const weight = termsWeight([...counters].filter(([, n]) => n !== 0).map(([i]) => i));
  if (weight > MAX_TERMS_PER_UPDATE) throw new Error(`Too many counters in one update: ${terms.length}`);
  const expression = `SET ${terms.join(', ')}`;
  return {
    UpdateExpression: expression,
    ExpressionAttributeValues: {
      ...Object.fromEntries([...values].map(([n, name]) => [name, n])),
      ...(expression.includes(':zero') && { ':zero': COUNTER_BIAS }),
    },
  };
}

/** The table's key of one row of counters (a key of CounterDelta). */
function rowKey(gen: string, key: string): { pk: string; sk: string } {
  if (isTopKey(key)) return { pk: topPk(gen), sk: key.slice(2) };
  const { status, day, campaign } = parseDayKey(key);
  return { pk: campaign ? campaignDaysPk(gen, campaign) : daysPk(gen), sk: dayKey(status, day) };
}

/**
 * A row of counters as created (ensureDays), every counter zero, and the condition it is
 * put under. A Top row is conditioned on its list, not its key: a sparse row stored before
 * the lists (see the header) is replaced rather than kept, so that updates can run.
 */
export function emptyRow(gen: string, key: string) {
  const top = isTopKey(key);
  const c = top
    ? Array<number>(TOP_COUNTERS).fill(COUNTER_BIAS)
    : emptyCells().map((row) => row.map((n) => n + COUNTER_BIAS));
  return {
    Item: { ...rowKey(gen, key), c },
    ConditionExpression: top ? 'attribute_not_exists(c)' : 'attribute_not_exists(pk)',
  };
}

/**
 * The key and update of one row's counter changes (a key of CounterDelta: a day row, a
 * campaign's day row, or a "Top campaigns" row). Every row must exist (ensureDays): the
 * update is conditioned on it, and a refusal names the row as missing.
 */
export function rowUpdate(gen: string, key: string, changes: ReadonlyMap<number, number>) {
  if (isBoardKey(key)) return boardUpdate(gen, key, changes);
  const top = isTopKey(key);
  return {
    Key: rowKey(gen, key),
    ...counterUpdate(changes, top ? topCounterPath : dayCounterPath),
    ConditionExpression: top ? 'attribute_exists(c)' : 'attribute_exists(pk)',
  };
}

const topCountersSchema = v.array(v.number());

/**
 * A referrer's counters on a board, added to (ADD): `b` brought, `a` approved, and the
 * board again as `rank`, the rank index's partition. `a` is written only once it changes:
 * a referrer none of whose recruits was approved is not on the index.
 */
function boardUpdate(gen: string, key: string, changes: ReadonlyMap<number, number>) {
  const { board, referrer } = parseBoardKey(key);
  const brought = changes.get(BROUGHT) ?? 0;
  const approved = changes.get(APPROVED) ?? 0;
  const adds = [...(brought ? ['b :b'] : []), ...(approved ? ['a :a'] : [])];
  const pk = boardPk(gen, board);
  return {
    Key: { pk, sk: referrer },
    UpdateExpression: `SET #rank = :rank ADD ${adds.join(', ')}`,
    ExpressionAttributeNames: { '#rank': 'rank' },
    ExpressionAttributeValues: { ':rank': pk, ...(brought && { ':b': brought }), ...(approved && { ':a': approved }) },
  };
}

/** A board item as stored. */
export function parseBoardItem(item: Record<string, unknown>): BoardEntry {
  const n = (value: unknown) => (typeof value === 'number' ? value : 0);
  return { referrer: String(item.sk), brought: n(item.b), approved: n(item.a) };
}

/** A "Top campaigns" row as stored: its non-zero counters (a sparse row's too, until rebuilt). */
export function parseTopRow(item: Record<string, unknown>): TopRow {
  const sk = String(item.sk);
  const split = sk.indexOf('#');
  const counts = new Map<number, number>();
  if (item.c !== undefined) {
    v.parse(topCountersSchema, item.c).forEach((stored, i) => {
      if (stored !== COUNTER_BIAS) counts.set(i, stored - COUNTER_BIAS);
    });
  } else {
    for (const [name, value] of Object.entries(item)) {
      if (/^n\d+$/.test(name) && typeof value === 'number' && value !== 0) counts.set(Number(name.slice(1)), value);
    }
  }
  return { day: sk.slice(0, split), campaign: sk.slice(split + 1), counts };
}

/**
 * What a counter's term weighs against MAX_TERMS_PER_UPDATE: the member-number counter's
 * term, with its `if_not_exists`, is nearly two terms long (counted so for any row's index).
 */
export const termWeight = (index: number) => (index % COUNTERS_PER_CELL === NUMBERED_OFFSET ? 2 : 1);
export const termsWeight = (indexes: Iterable<number>) => {
  let sum = 0;
  for (const i of indexes) sum += termWeight(i);
  return sum;
};

/** Splits one day row's changes into updates small enough for one expression each. */
export function splitCounters(counters: ReadonlyMap<number, number>): Map<number, number>[] {
  const parts: Map<number, number>[] = [];
  let part = new Map<number, number>();
  let weight = 0;
  for (const [i, n] of counters) {
    if (n === 0) continue;
    if (weight + termWeight(i) > MAX_TERMS_PER_UPDATE) {
      parts.push(part);
      part = new Map();
      weight = 0;
    }
    part.set(i, n);
    weight += termWeight(i);
  }
  if (part.size > 0) parts.push(part);
  return parts;
}

/** `ADD pending :s0, ...` on the totals item, or undefined when no status count changes. */
export function totalsUpdate(statuses: ReadonlyMap<ApplicationStatus, number>):
  | {
      UpdateExpression: string;
      ExpressionAttributeValues: Record<string, number>;
    }
  | undefined {
  const changes = [...statuses].filter(([, n]) => n !== 0);
  if (changes.length === 0) return undefined;
  return {
    UpdateExpression: `ADD ${changes.map(([s], i) => `${s} :s${i}`).join(', ')}`,
    ExpressionAttributeValues: Object.fromEntries(changes.map(([, n], i) => [`:s${i}`, n])),
  };
}
