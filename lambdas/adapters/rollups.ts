import { type CancellationReason, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  BatchWriteCommand,
  type BatchWriteCommandInput,
  type BatchWriteCommandOutput,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { applicationStatuses, type ApplicationStatus } from '../../rules/application';
import {
  ageBuckets,
  COUNTERS_PER_CELL,
  type CountedCell,
  type DayCounters,
  dayKey,
  emptyCells,
  genderKeys,
  memberKeys,
  parseDayKey,
} from '../../rules/report';

// The report rollups in their table (lib/table-definitions.ts `rollups`):
//
//   META      META                   which generation is read (gen_current), which is being
//                                    rebuilt (gen_building), and the ageing marker
//                                    (aged_through, aging_to)
//   G#g#DAYS  <status>#<YYYY-MM-DD>  one row per IST day and status: counters c[district][12],
//                                    created zero-filled (COUNTER_BIAS), the same size every row
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

export const INITIAL_GENERATION = '1';
export const BIRTHDAY_INDEX = 'by-birthday';
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

const metaKey = { pk: 'META', sk: 'META' } as const;
const daysPk = (gen: string) => `G#${gen}#DAYS`;
const totalsKey = (gen: string) => ({ pk: `G#${gen}#TOTALS`, sk: 'TOTALS' });
const statePk = (gen: string, id: string) => `G#${gen}#APP#${id}`;
const stateKey = (gen: string, id: string) => ({ pk: statePk(gen, id), sk: 'STATE' });
/** Birthday index partition: generation and month-day of birth. */
const birthdayPk = (gen: string, birthDate: string) => `G#${gen}#${birthDate.slice(5)}`;

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

/** A state write: `expectRev` undefined means the state must not exist yet. */
export interface StateWrite {
  readonly expectRev?: number;
  readonly next: RollupState;
}

/** Why a transaction was refused, by part. */
export interface CommitFailure {
  readonly kind: 'refused';
  /** States written by someone else since they were read. */
  readonly staleStates: string[];
  /** Day rows that do not exist (yet, or any more). */
  readonly missingDays: string[];
  /** Another transaction was on the same items. */
  readonly conflict: boolean;
}

export type CommitResult = { readonly kind: 'committed' } | CommitFailure;

const numberOr0 = z.number().catch(0);
const stateItemSchema = z.object({
  id: z.string(),
  rev: z.number().int(),
  seq: z.string().optional(),
  day: z.string().optional(),
  status: z.enum(applicationStatuses).optional(),
  district: z.string().optional(),
  gender: z.enum(genderKeys).optional(),
  member: z.enum(memberKeys).optional(),
  age: z.enum(ageBuckets).optional(),
  age_day: z.string().optional(),
  birth_date: z.string().optional(),
});

function parseState(item: Record<string, unknown>): RollupState {
  const s = stateItemSchema.parse(item);
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

function stateItem(gen: string, state: RollupState): Record<string, unknown> {
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
      // Sparse index: only counted states with a valid date of birth can change bucket.
      ...(cell.birthDate && { birth_date: cell.birthDate, birthday: birthdayPk(gen, cell.birthDate) }),
    }),
  };
}

const metaItemSchema = z.object({
  gen_current: z.string(),
  gen_building: z.string().optional(),
  aged_through: z.string(),
  aging_to: z.string().optional(),
});

function parseMeta(item: Record<string, unknown>): RollupsMeta {
  const m = metaItemSchema.parse(item);
  return {
    current: m.gen_current,
    agedThrough: m.aged_through,
    ...(m.gen_building && { building: m.gen_building }),
    ...(m.aging_to && { agingTo: m.aging_to }),
  };
}

const cellsSchema = z.array(z.array(z.number()));

/** `SET c[i][j] = c[i][j] + :vN, ...` for one day row's counter changes (at most MAX_TERMS_PER_UPDATE). */
export function counterUpdate(counters: ReadonlyMap<number, number>): {
  UpdateExpression: string;
  ExpressionAttributeValues: Record<string, number>;
} {
  const values = new Map<number, string>();
  const terms: string[] = [];
  for (const [index, n] of counters) {
    if (n === 0) continue;
    let name = values.get(n);
    if (!name) values.set(n, (name = `:v${values.size}`));
    const path = `c[${Math.floor(index / COUNTERS_PER_CELL)}][${index % COUNTERS_PER_CELL}]`;
    terms.push(`${path} = ${path} + ${name}`);
  }
  if (terms.length > MAX_TERMS_PER_UPDATE) throw new Error(`Too many counters in one update: ${terms.length}`);
  return {
    UpdateExpression: `SET ${terms.join(', ')}`,
    ExpressionAttributeValues: Object.fromEntries([...values].map(([n, name]) => [name, n])),
  };
}

/** Splits one day row's changes into updates small enough for one expression each. */
export function splitCounters(counters: ReadonlyMap<number, number>): Map<number, number>[] {
  const parts: Map<number, number>[] = [];
  let part = new Map<number, number>();
  for (const [i, n] of counters) {
    if (n === 0) continue;
    if (part.size >= MAX_TERMS_PER_UPDATE) {
      parts.push(part);
      part = new Map();
    }
    part.set(i, n);
  }
  if (part.size > 0) parts.push(part);
  return parts;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A write outside a transaction fails while a transaction holds the item: try again shortly. */
async function retryConflicts<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if ((error as Error).name !== 'TransactionConflictException' || attempt >= 10) throw error;
      await sleep(Math.random() * Math.min(20 * 2 ** attempt, 1000));
    }
  }
}

const ignoreConditionFailure = (error: unknown) => {
  if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
};

export interface RollupsStore {
  readonly tableName: string;
  getMeta(consistent?: boolean): Promise<RollupsMeta | undefined>;
  /** META, created on first use with the given day as the ageing marker (no state exists yet). */
  ensureMeta(today: string): Promise<RollupsMeta>;
  getStates(gen: string, ids: readonly string[]): Promise<Map<string, RollupState>>;
  /**
   * Creates missing day rows zero-filled, the four statuses of a day together (a day
   * with data always has its four rows: a report reads the same items whatever the
   * data), and widens the generation's first/last day. Rows created by this container
   * are remembered; `recheck` forgets that.
   */
  ensureDays(gen: string, keys: readonly string[], recheck?: boolean): Promise<void>;
  /** States and the counter changes they cause, with the totals, in one transaction. */
  commit(
    gen: string,
    writes: readonly StateWrite[],
    counters: ReadonlyMap<string, ReadonlyMap<number, number>>,
    statuses: ReadonlyMap<ApplicationStatus, number>,
  ): Promise<CommitResult>;
  /** Adds counter changes without a state (the rebuild's sums); rows must exist. */
  addCounters(
    gen: string,
    counters: ReadonlyMap<string, ReadonlyMap<number, number>>,
    statuses: ReadonlyMap<ApplicationStatus, number>,
  ): Promise<void>;
  readDays(gen: string, statuses: readonly ApplicationStatus[], from: string, to: string): Promise<DayCounters[]>;
  readTotals(gen: string): Promise<Totals>;
  /** Counted states born on any of the dates, from the birthday index (eventually consistent). */
  statesBornOn(gen: string, birthDates: readonly string[]): Promise<RollupState[]>;
  announceAging(day: string): Promise<RollupsMeta>;
  finishAging(day: string): Promise<void>;
  startBuilding(gen: string, force: boolean): Promise<RollupsMeta>;
  switchTo(gen: string): Promise<void>;
  /** Deletes every item of a generation that is not active. Returns how many. */
  deleteGeneration(gen: string): Promise<number>;
  /** Every item of a generation, for comparisons (tests, benchmark). */
  dumpGeneration(gen: string): Promise<{ days: DayCounters[]; totals: Totals; states: RollupState[] }>;
}

export function makeRollupsStore(db: DynamoDBDocumentClient, tableName: string): RollupsStore {
  /** Day rows known to exist, per generation: most batches need no creation write. */
  const knownDays = new Set<string>();

  const getMeta = async (consistent = true) => {
    const result = await db.send(new GetCommand({ TableName: tableName, Key: metaKey, ConsistentRead: consistent }));
    return result.Item ? parseMeta(result.Item) : undefined;
  };

  const readTotals = async (gen: string): Promise<Totals> => {
    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: totalsKey(gen) }));
    const byStatus = Object.fromEntries(applicationStatuses.map((s) => [s, numberOr0.parse(Item?.[s])])) as Record<
      ApplicationStatus,
      number
    >;
    return {
      byStatus,
      ...(typeof Item?.first_day === 'string' && { firstDay: Item.first_day }),
      ...(typeof Item?.last_day === 'string' && { lastDay: Item.last_day }),
    };
  };

  const queryAll = async (input: ConstructorParameters<typeof QueryCommand>[0]) => {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await db.send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    return items;
  };

  const toDayCounters = (item: Record<string, unknown>): DayCounters => {
    const { status, day } = parseDayKey(String(item.sk));
    return { status, day, cells: cellsSchema.parse(item.c).map((row) => row.map((n) => n - COUNTER_BIAS)) };
  };

  const store: RollupsStore = {
    tableName,
    getMeta,

    async ensureMeta(today) {
      const meta = await getMeta();
      if (meta) return meta;
      try {
        await db.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...metaKey, gen_current: INITIAL_GENERATION, aged_through: today },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
      } catch (error) {
        if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
      }
      return (await getMeta())!;
    },

    async getStates(gen, ids) {
      const found = new Map<string, RollupState>();
      const unique = [...new Set(ids)];
      for (let i = 0; i < unique.length; i += 100) {
        let keys: Record<string, unknown>[] | undefined = unique.slice(i, i + 100).map((id) => stateKey(gen, id));
        for (let attempt = 0; keys && keys.length > 0; attempt++) {
          const result: BatchGetCommandOutput = await db.send(
            new BatchGetCommand({ RequestItems: { [tableName]: { Keys: keys, ConsistentRead: true } } }),
          );
          for (const item of result.Responses?.[tableName] ?? []) {
            const state = parseState(item);
            found.set(state.id, state);
          }
          keys = result.UnprocessedKeys?.[tableName]?.Keys;
          if (keys && keys.length > 0) await sleep(Math.min(50 * 2 ** attempt, 1000));
        }
      }
      return found;
    },

    async ensureDays(gen, keys, recheck = false) {
      const days = new Set(keys.map((k) => parseDayKey(k).day));
      const missing = [...days]
        .flatMap((day) => applicationStatuses.map((status) => dayKey(status, day)))
        .filter((k) => recheck || !knownDays.has(`${gen}|${k}`));
      await Promise.all(
        missing.map(async (key) => {
          const { day } = parseDayKey(key);
          await retryConflicts(() =>
            db.send(
              new PutCommand({
                TableName: tableName,
                Item: { pk: daysPk(gen), sk: key, c: emptyCells().map((row) => row.map((n) => n + COUNTER_BIAS)) },
                ConditionExpression: 'attribute_not_exists(pk)',
              }),
            ),
          ).catch(ignoreConditionFailure);
          // Idempotent widening, run on every creation attempt so that a crash between
          // the two writes is repaired by the next one.
          for (const [attribute, comparison] of [
            ['first_day', '>'],
            ['last_day', '<'],
          ] as const) {
            await retryConflicts(() =>
              db.send(
                new UpdateCommand({
                  TableName: tableName,
                  Key: totalsKey(gen),
                  UpdateExpression: `SET ${attribute} = :d`,
                  ConditionExpression: `attribute_not_exists(${attribute}) OR ${attribute} ${comparison} :d`,
                  ExpressionAttributeValues: { ':d': day },
                }),
              ),
            ).catch(ignoreConditionFailure);
          }
          knownDays.add(`${gen}|${key}`);
        }),
      );
    },

    async commit(gen, writes, counters, statuses) {
      const items: NonNullable<TransactWriteCommandInput['TransactItems']> = [];
      for (const { expectRev, next } of writes) {
        items.push({
          Put: {
            TableName: tableName,
            Item: stateItem(gen, next),
            ...(expectRev === undefined
              ? { ConditionExpression: 'attribute_not_exists(pk)' }
              : { ConditionExpression: 'rev = :rev', ExpressionAttributeValues: { ':rev': expectRev } }),
          },
        });
      }
      const dayKeys: string[] = [];
      for (const [key, changes] of counters) {
        if (![...changes.values()].some((n) => n !== 0)) continue;
        dayKeys.push(key);
        items.push({
          Update: {
            TableName: tableName,
            Key: { pk: daysPk(gen), sk: key },
            ...counterUpdate(changes),
            ConditionExpression: 'attribute_exists(pk)',
          },
        });
      }
      const statusChanges = [...statuses].filter(([, n]) => n !== 0);
      if (statusChanges.length > 0) {
        items.push({
          Update: {
            TableName: tableName,
            Key: totalsKey(gen),
            UpdateExpression: `ADD ${statusChanges.map(([s], i) => `${s} :s${i}`).join(', ')}`,
            ExpressionAttributeValues: Object.fromEntries(statusChanges.map(([, n], i) => [`:s${i}`, n])),
          },
        });
      }
      if (items.length === 0) return { kind: 'committed' };
      if (items.length > MAX_TRANSACTION_ITEMS) throw new Error(`Transaction of ${items.length} actions`);
      try {
        await db.send(new TransactWriteCommand({ TransactItems: items }));
        return { kind: 'committed' };
      } catch (error) {
        if (!(error instanceof TransactionCanceledException)) throw error;
        const reasons: CancellationReason[] = error.CancellationReasons ?? [];
        const failed = (i: number) => reasons[i]?.Code === 'ConditionalCheckFailed';
        return {
          kind: 'refused',
          staleStates: writes.filter((_, i) => failed(i)).map((w) => w.next.id),
          missingDays: dayKeys.filter((_, i) => failed(writes.length + i)),
          conflict: reasons.some((r) => r.Code === 'TransactionConflict') || reasons.length === 0,
        };
      }
    },

    async addCounters(gen, counters, statuses) {
      const updates: Promise<unknown>[] = [];
      for (const [key, changes] of counters) {
        for (const part of splitCounters(changes)) {
          updates.push(
            retryConflicts(() =>
              db.send(
                new UpdateCommand({
                  TableName: tableName,
                  Key: { pk: daysPk(gen), sk: key },
                  ...counterUpdate(part),
                  ConditionExpression: 'attribute_exists(pk)',
                }),
              ),
            ),
          );
        }
      }
      const statusChanges = [...statuses].filter(([, n]) => n !== 0);
      if (statusChanges.length > 0) {
        updates.push(
          retryConflicts(() =>
            db.send(
              new UpdateCommand({
                TableName: tableName,
                Key: totalsKey(gen),
                UpdateExpression: `ADD ${statusChanges.map(([s], i) => `${s} :s${i}`).join(', ')}`,
                ExpressionAttributeValues: Object.fromEntries(statusChanges.map(([, n], i) => [`:s${i}`, n])),
              }),
            ),
          ),
        );
      }
      await Promise.all(updates);
    },

    async readDays(gen, statuses, from, to) {
      const pages = await Promise.all(
        statuses.map((status) =>
          queryAll({
            TableName: tableName,
            KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
            ExpressionAttributeValues: { ':pk': daysPk(gen), ':from': dayKey(status, from), ':to': dayKey(status, to) },
          }),
        ),
      );
      return pages.flat().map(toDayCounters);
    },

    readTotals,

    async statesBornOn(gen, birthDates) {
      const unique = [...new Set(birthDates)];
      const found: RollupState[] = [];
      // A few queries at a time: one partition per month-day, one exact sort key each.
      for (let i = 0; i < unique.length; i += 8) {
        const pages = await Promise.all(
          unique.slice(i, i + 8).map((date) =>
            queryAll({
              TableName: tableName,
              IndexName: BIRTHDAY_INDEX,
              KeyConditionExpression: 'birthday = :b AND birth_date = :d',
              ExpressionAttributeValues: { ':b': birthdayPk(gen, date), ':d': date },
            }),
          ),
        );
        for (const item of pages.flat()) found.push(parseState(item));
      }
      return found;
    },

    async announceAging(day) {
      try {
        const result = await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: metaKey,
            UpdateExpression: 'SET aging_to = :d',
            ConditionExpression:
              'attribute_exists(pk) AND aged_through < :d AND (attribute_not_exists(aging_to) OR aging_to < :d)',
            ExpressionAttributeValues: { ':d': day },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return parseMeta(result.Attributes!);
      } catch (error) {
        if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
        // Already announced (a run that stopped half-way, or one running now): go on from it.
        return (await getMeta())!;
      }
    },

    async finishAging(day) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: metaKey,
            UpdateExpression: 'SET aged_through = :d REMOVE aging_to',
            ConditionExpression: 'aged_through < :d AND aging_to = :d',
            ExpressionAttributeValues: { ':d': day },
          }),
        );
      } catch (error) {
        if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
        // Another run finished this day, or one toward a later day is under way.
        const meta = await getMeta();
        if (!meta || meta.agedThrough >= day) return;
        if (meta.agingTo && meta.agingTo > day) {
          await db
            .send(
              new UpdateCommand({
                TableName: tableName,
                Key: metaKey,
                UpdateExpression: 'SET aged_through = :d',
                ConditionExpression: 'aged_through < :d',
                ExpressionAttributeValues: { ':d': day },
              }),
            )
            .catch((e: Error) => {
              if (e.name !== 'ConditionalCheckFailedException') throw e;
            });
        }
      }
    },

    async startBuilding(gen, force) {
      const result = await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: metaKey,
          UpdateExpression: 'SET gen_building = :g',
          ConditionExpression: force
            ? 'attribute_exists(pk) AND gen_current <> :g'
            : 'attribute_exists(pk) AND attribute_not_exists(gen_building) AND gen_current <> :g',
          ExpressionAttributeValues: { ':g': gen },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return parseMeta(result.Attributes!);
    },

    async switchTo(gen) {
      await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: metaKey,
          UpdateExpression: 'SET gen_current = :g REMOVE gen_building',
          ConditionExpression: 'gen_building = :g',
          ExpressionAttributeValues: { ':g': gen },
        }),
      );
    },

    async deleteGeneration(gen) {
      const meta = await getMeta();
      if (meta && activeGenerations(meta).includes(gen)) throw new Error(`Generation ${gen} is in use`);
      const prefix = `G#${gen}#`;
      let deleted = 0;
      let start: Record<string, unknown> | undefined;
      do {
        const page = await db.send(
          new ScanCommand({
            TableName: tableName,
            FilterExpression: 'begins_with(pk, :p)',
            ExpressionAttributeValues: { ':p': prefix },
            ProjectionExpression: 'pk, sk',
            ExclusiveStartKey: start,
          }),
        );
        const keys = (page.Items ?? []).map((i) => ({ pk: i.pk as string, sk: i.sk as string }));
        const batches: Promise<void>[] = [];
        for (let i = 0; i < keys.length; i += 25) {
          batches.push(batchDelete(keys.slice(i, i + 25)));
        }
        await Promise.all(batches);
        deleted += keys.length;
        start = page.LastEvaluatedKey;
      } while (start);
      for (const key of [...knownDays]) if (key.startsWith(`${gen}|`)) knownDays.delete(key);
      return deleted;
    },

    async dumpGeneration(gen) {
      const days = (
        await queryAll({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': daysPk(gen) },
          ConsistentRead: true,
        })
      ).map(toDayCounters);
      const states: RollupState[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await db.send(
          new ScanCommand({
            TableName: tableName,
            FilterExpression: 'begins_with(pk, :p) AND sk = :s',
            ExpressionAttributeValues: { ':p': `G#${gen}#APP#`, ':s': 'STATE' },
            ConsistentRead: true,
            ExclusiveStartKey: start,
          }),
        );
        for (const item of page.Items ?? []) states.push(parseState(item));
        start = page.LastEvaluatedKey;
      } while (start);
      return { days, totals: await readTotals(gen), states };
    },
  };

  async function batchDelete(keys: { pk: string; sk: string }[]): Promise<void> {
    let requests: NonNullable<BatchWriteCommandInput['RequestItems']>[string] | undefined = keys.map((Key) => ({
      DeleteRequest: { Key },
    }));
    for (let attempt = 0; requests && requests.length > 0; attempt++) {
      const result: BatchWriteCommandOutput = await db.send(
        new BatchWriteCommand({ RequestItems: { [tableName]: requests } }),
      );
      requests = result.UnprocessedItems?.[tableName];
      if (requests && requests.length > 0) await sleep(Math.min(50 * 2 ** attempt, 1000));
    }
  }

  return store;
}
