import { setTimeout as sleep } from 'node:timers/promises';
import {
  BatchGetCommand,
  type Db,
  isTransactionCanceled,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
  type CancellationReason,
} from '../lib/db';
import type { BatchGetCommandOutput, TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { applicationStatuses, type ApplicationStatus } from '../../rules/application';
import { dayKey, isTopKey, parseDayKey } from '../../rules/report-counters';
import { isBoardKey } from '../../rules/report-referrals';
import { ignoreConditionFailed, retryConflicts } from '../lib/dynamo';
import { readMeta } from './rollups-reader';
import {
  emptyRow,
  INITIAL_GENERATION,
  MAX_TRANSACTION_ITEMS,
  metaKey,
  parseState,
  type RollupState,
  type RollupsMeta,
  rowUpdate,
  stateItem,
  stateKey,
  totalsKey,
  totalsUpdate,
} from './rollups-keys';

// The writes that keep the rollups: an application's state and the counters it moves,
// in one transaction (the stream consumer, the ageing run's moves, the rebuild's states).

/** A state write: `expectRev` undefined means the state must not exist yet. */
export interface StateWrite {
  readonly expectRev?: number;
  readonly next: RollupState;
}

/** Why a transaction was refused, by part. */
interface CommitFailure {
  readonly kind: 'refused';
  /** States written by someone else since they were read. */
  readonly staleStates: string[];
  /** Day rows that do not exist (yet, or any more). */
  readonly missingDays: string[];
  /** Another transaction was on the same items. */
  readonly conflict: boolean;
}

type CommitResult = { readonly kind: 'committed' } | CommitFailure;

export interface RollupsWriter {
  /** META, created on first use with the given day as the ageing marker (no state exists yet). */
  ensureMeta(today: string): Promise<RollupsMeta>;
  getStates(gen: string, ids: readonly string[]): Promise<Map<string, RollupState>>;
  /**
   * Creates missing day rows zero-filled, the four statuses of a day together (a day
   * with data always has its four rows: a report reads the same items whatever the
   * data), and the Top rows of the keys, zero-filled too; widens the generation's
   * first/last day. Rows created by this container are remembered; `recheck` forgets that.
   */
  ensureDays(gen: string, keys: readonly string[], recheck?: boolean): Promise<void>;
  /** States and the counter changes they cause, with the totals, in one transaction. */
  commit(
    gen: string,
    writes: readonly StateWrite[],
    counters: ReadonlyMap<string, ReadonlyMap<number, number>>,
    statuses: ReadonlyMap<ApplicationStatus, number>,
  ): Promise<CommitResult>;
}

/** The transaction's actions: states first, then the day rows, then the totals (reasons come back in this order). */
function commitItems(
  tableName: string,
  gen: string,
  writes: readonly StateWrite[],
  counters: ReadonlyMap<string, ReadonlyMap<number, number>>,
  statuses: ReadonlyMap<ApplicationStatus, number>,
) {
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
    // Every row's update but a referral board's is conditioned on the row: a refusal reports
    // it missing. A board is added to, never refused.
    dayKeys.push(key);
    items.push({ Update: { TableName: tableName, ...rowUpdate(gen, key, changes) } });
  }
  const totals = totalsUpdate(statuses);
  if (totals) items.push({ Update: { TableName: tableName, Key: totalsKey(gen), ...totals } });
  return { items, dayKeys };
}

/** The rows of changed keys: per day (and campaign), its four statuses' day rows; each Top row itself. */
function dayRowsOf(keys: readonly string[]): string[] {
  const days = new Map(
    keys
      .filter((k) => !isTopKey(k) && !isBoardKey(k))
      .map((k) => parseDayKey(k))
      .map(({ day, campaign }) => [`${day}#${campaign ?? ''}`, { day, campaign }]),
  );
  const top = [...new Set(keys.filter(isTopKey))];
  return [
    ...[...days.values()].flatMap(({ day, campaign }) =>
      applicationStatuses.map((status) => dayKey(status, day, campaign)),
    ),
    ...top,
  ];
}

export function makeRollupsWriter(db: Db, tableName: string): RollupsWriter {
  /**
   * Day rows known to exist, per generation: most batches need no creation write. A
   * generation is deleted only once it is no longer active, and is never written again
   * after; should a batch that read META before a switch still write it, the commit's
   * `attribute_exists` condition refuses it and `recheck` looks again.
   */
  const knownDays = new Set<string>();

  /** Creates one row if absent (zero-filled) and, for a day row, widens the generation's first and last day to it. */
  const createDay = async (gen: string, key: string) => {
    await ignoreConditionFailed(
      retryConflicts(() => db.send(new PutCommand({ TableName: tableName, ...emptyRow(gen, key) }))),
    );
    // A campaign's day rows and the Top rows are of days the generation's own rows have, which widen the range.
    if (isTopKey(key) || parseDayKey(key).campaign) {
      knownDays.add(`${gen}|${key}`);
      return;
    }
    const { day } = parseDayKey(key);
    // Idempotent widening, run on every creation attempt so that a crash between
    // the two writes is repaired by the next one.
    for (const [attribute, comparison] of [
      ['first_day', '>'],
      ['last_day', '<'],
    ] as const) {
      await ignoreConditionFailed(
        retryConflicts(() =>
          db.send(
            new UpdateCommand({
              TableName: tableName,
              Key: totalsKey(gen),
              UpdateExpression: `SET ${attribute} = :d`,
              ConditionExpression: `attribute_not_exists(${attribute}) OR ${attribute} ${comparison} :d`,
              ExpressionAttributeValues: { ':d': day },
            }),
          ),
        ),
      );
    }
    knownDays.add(`${gen}|${key}`);
  };

  return {
    async ensureMeta(today) {
      const meta = await readMeta(db, tableName);
      if (meta) return meta;
      await ignoreConditionFailed(
        db.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...metaKey, gen_current: INITIAL_GENERATION, aged_through: today },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        ),
      );
      return (await readMeta(db, tableName))!;
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
      const missing = dayRowsOf(keys).filter((k) => recheck || !knownDays.has(`${gen}|${k}`));
      await Promise.all(missing.map((key) => createDay(gen, key)));
    },

    async commit(gen, writes, counters, statuses) {
      const { items, dayKeys } = commitItems(tableName, gen, writes, counters, statuses);
      if (items.length === 0) return { kind: 'committed' };
      if (items.length > MAX_TRANSACTION_ITEMS) throw new Error(`Transaction of ${items.length} actions`);
      try {
        await db.send(new TransactWriteCommand({ TransactItems: items }));
        return { kind: 'committed' };
      } catch (error) {
        if (!isTransactionCanceled(error)) throw error;
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
  };
}
