import { type Db, DeleteCommand, GetCommand, isConditionFailed, isTransactionCanceled, TransactWriteCommand, type CancellationReason } from '../lib/db';

// Rate limits as conditional writes, all checked and counted in one transaction: a
// request either passes every limit and is counted in each, or is counted in none.

export type Limit =
  /** At most one hit per `seconds`, measured from the previous hit. */
  | { readonly kind: 'cooldown'; readonly key: string; readonly seconds: number }
  /**
   * At most `max` hits per fixed window of `seconds` (clock-aligned). Cheap and hot-key
   * safe, but two windows meet: up to 2 × max hits can fall within `seconds` across the
   * edge. For generous limits shared by a crowd (one campus address).
   */
  | { readonly kind: 'window'; readonly key: string; readonly seconds: number; readonly max: number }
  /**
   * At most `max` hits in ANY `seconds`, for each window: the item keeps the hit times of
   * the longest window and is written only if nobody changed it since it was read. Exact,
   * for the small per-number limits (5 an hour, 10 a day).
   */
  | {
      readonly kind: 'sliding';
      readonly key: string;
      readonly windows: readonly { readonly seconds: number; readonly max: number }[];
    };

type LimitResult = { allowed: true } | { allowed: false; retryAfterSeconds: number; key: string };

export interface RateLimiter {
  hit(limits: readonly Limit[], now: Date): Promise<LimitResult>;
  /**
   * Gives back a cooldown taken at `now` (a send that failed before anything reached the
   * visitor: they may try again at once). A later hit is left alone. Windows stay counted.
   */
  releaseCooldown(key: string, now: Date): Promise<void>;
}

/** Tries of a transaction cancelled only by conflicts with concurrent ones. */
export const CONFLICT_ATTEMPTS = 4;
/** 25-50 ms, then 50-100, 100-200: jittered, so that the conflicting senders spread out. */
const conflictBackoffMs = (attempt: number) => 25 * 2 ** (attempt - 1) * (1 + Math.random());
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type SlidingLimit = Extract<Limit, { kind: 'sliding' }>;
/** A sliding limit's item as read: its hit times (epoch ms, oldest first) and version. */
interface HitLog {
  readonly times: readonly number[];
  readonly version: number | undefined;
}

/** When the next hit may come (epoch ms), or 0 when it may come now. */
export function slidingRetryAt(limit: SlidingLimit, times: readonly number[], nowMs: number): number {
  let retryAt = 0;
  for (const { seconds, max } of limit.windows) {
    const inWindow = times.filter((t) => t > nowMs - seconds * 1000);
    // Enough of the oldest hits must leave the window for one more to fit.
    const leaving = inWindow[inWindow.length - max];
    if (inWindow.length >= max && leaving !== undefined) retryAt = Math.max(retryAt, leaving + seconds * 1000);
  }
  return retryAt;
}

export function makeRateLimiter(db: Db, tableName: string): RateLimiter {
  return {
    async releaseCooldown(key, now) {
      try {
        await db.send(
          new DeleteCommand({
            TableName: tableName,
            Key: { pk: `cooldown#${key}` },
            ConditionExpression: 'last_at = :at',
            ExpressionAttributeValues: { ':at': now.getTime() },
          }),
        );
      } catch (error) {
        if (!(isConditionFailed(error))) throw error;
      }
    },
    async hit(limits, now) {
      const nowMs = now.getTime();
      for (let attempt = 1; ; attempt++) {
        // The sliding limits are read first: one already full refuses with nothing counted.
        const logs = new Map<string, HitLog>();
        let full: { retryAt: number; key: string } | undefined;
        for (const limit of limits) {
          if (limit.kind !== 'sliding') continue;
          const log = await readLog(limit.key);
          logs.set(limit.key, log);
          const retryAt = slidingRetryAt(limit, log.times, nowMs);
          if (retryAt > (full?.retryAt ?? 0)) full = { retryAt, key: limit.key };
        }
        if (full) return refusal(full.retryAt, full.key);

        const items = limits.map((limit) => limitWrite(tableName, limit, logs.get(limit.key), nowMs));
        let reasons: CancellationReason[];
        try {
          await db.send(new TransactWriteCommand({ TransactItems: items.map((i) => ({ Update: i.update })) }));
          return { allowed: true };
        } catch (error) {
          if (!(isTransactionCanceled(error))) throw error;
          reasons = error.CancellationReasons ?? [];
        }
        // Two visitors behind one address (a campus network, a carrier's NAT) sending at
        // the same moment touch the same per-address counter, and DynamoDB cancels one
        // transaction with TransactionConflict; a sliding limit's item changed since it was
        // read fails its version check. Nobody broke a limit: read again, try again, briefly.
        const failed = (index: number) => reasons[index]?.Code === 'ConditionalCheckFailed';
        const broken = items.some((item, index) => failed(index) && item.limit.kind !== 'sliding');
        const raced =
          reasons.some((r) => r.Code === 'TransactionConflict') || items.some((item, index) => failed(index));
        if (!broken && raced && attempt < CONFLICT_ATTEMPTS) {
          await sleep(conflictBackoffMs(attempt));
          continue;
        }
        const { retryAt, key } = latestRetry(items, reasons);
        // Still conflicting after the tries, or cancelled for another reason: a short
        // cooldown, which is what the visitor's retry needs.
        if (retryAt === 0) return { allowed: false, retryAfterSeconds: 1, key: limits[0]?.key ?? '' };
        return refusal(retryAt, key);
      }

      function refusal(retryAt: number, key: string): LimitResult {
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((retryAt - nowMs) / 1000)), key };
      }

      async function readLog(key: string): Promise<HitLog> {
        const { Item } = await db.send(
          new GetCommand({ TableName: tableName, Key: { pk: `sliding#${key}` }, ConsistentRead: true }),
        );
        const times = Array.isArray(Item?.times) ? Item.times.filter((t): t is number => typeof t === 'number') : [];
        return { times, version: typeof Item?.version === 'number' ? Item.version : undefined };
      }
    },
  };
}

/** A limit's conditional update at `nowMs`: it fails when the limit is already reached. */
function limitWrite(tableName: string, limit: Limit, log: HitLog | undefined, nowMs: number) {
  if (limit.kind === 'cooldown') {
    return {
      limit,
      retryAt: (item: Record<string, unknown> | undefined) => Number(item?.last_at ?? nowMs) + limit.seconds * 1000,
      update: {
        TableName: tableName,
        Key: { pk: `cooldown#${limit.key}` },
        UpdateExpression: 'SET last_at = :now, #ttl = :ttl',
        ConditionExpression: 'attribute_not_exists(last_at) OR last_at <= :cutoff',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: {
          ':now': nowMs,
          ':cutoff': nowMs - limit.seconds * 1000,
          ':ttl': Math.ceil(nowMs / 1000) + limit.seconds + 60,
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
      },
    };
  }
  if (limit.kind === 'sliding') {
    const longest = Math.max(...limit.windows.map((w) => w.seconds));
    const kept = (log?.times ?? []).filter((t) => t > nowMs - longest * 1000);
    const version = log?.version;
    return {
      limit,
      retryAt: () => nowMs + 1000,
      update: {
        TableName: tableName,
        Key: { pk: `sliding#${limit.key}` },
        UpdateExpression: 'SET times = :times, version = :next, #ttl = :ttl',
        ConditionExpression: version === undefined ? 'attribute_not_exists(version)' : 'version = :version',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: {
          ':times': [...kept, nowMs],
          ':next': (version ?? 0) + 1,
          ':ttl': Math.ceil(nowMs / 1000) + longest + 60,
          ...(version !== undefined && { ':version': version }),
        },
      },
    };
  }
  const windowMs = limit.seconds * 1000;
  const windowEnd = (Math.floor(nowMs / windowMs) + 1) * windowMs;
  return {
    limit,
    retryAt: () => windowEnd,
    update: {
      TableName: tableName,
      Key: { pk: `window#${limit.key}#${Math.floor(nowMs / windowMs)}` },
      UpdateExpression: 'ADD hits :one SET #ttl = :ttl',
      ConditionExpression: 'attribute_not_exists(hits) OR hits < :max',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':one': 1, ':max': limit.max, ':ttl': Math.ceil(windowEnd / 1000) + 60 },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

/** Of the limits a cancelled transaction found reached, the one that frees last (retryAt 0: none was). */
function latestRetry(items: readonly LimitWrite[], reasons: readonly CancellationReason[]) {
  let retryAt = 0;
  let key = '';
  reasons.forEach((reason, index) => {
    const item = items[index];
    if (reason.Code !== 'ConditionalCheckFailed' || !item || item.limit.kind === 'sliding') return;
    const at = item.retryAt(reason.Item ? { last_at: reason.Item.last_at?.N } : undefined);
    if (at > retryAt) {
      retryAt = at;
      key = item.limit.key;
    }
  });
  return { retryAt, key };
}

type LimitWrite = ReturnType<typeof limitWrite>;
