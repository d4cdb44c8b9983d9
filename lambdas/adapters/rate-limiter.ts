import {
  type CancellationReason,
  ConditionalCheckFailedException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import { DeleteCommand, type DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';

// Rate limits as conditional writes, all checked and counted in one transaction: a
// request either passes every limit and is counted in each, or is counted in none.

export type Limit =
  /** At most one hit per `seconds`, measured from the previous hit. */
  | { readonly kind: 'cooldown'; readonly key: string; readonly seconds: number }
  /** At most `max` hits per fixed window of `seconds`. */
  | { readonly kind: 'window'; readonly key: string; readonly seconds: number; readonly max: number };

export type LimitResult = { allowed: true } | { allowed: false; retryAfterSeconds: number; key: string };

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

export function makeRateLimiter(db: DynamoDBDocumentClient, tableName: string): RateLimiter {
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
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    },
    async hit(limits, now) {
      const nowMs = now.getTime();
      const items = limits.map((limit) => {
        if (limit.kind === 'cooldown') {
          return {
            limit,
            retryAt: (item: Record<string, unknown> | undefined) =>
              Number(item?.last_at ?? nowMs) + limit.seconds * 1000,
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
      });
      const transaction = new TransactWriteCommand({ TransactItems: items.map((i) => ({ Update: i.update })) });
      let reasons: CancellationReason[] = [];
      for (let attempt = 1; ; attempt++) {
        try {
          await db.send(transaction);
          return { allowed: true };
        } catch (error) {
          if (!(error instanceof TransactionCanceledException)) throw error;
          reasons = error.CancellationReasons ?? [];
        }
        // Two visitors behind one address (a campus network, a carrier's NAT) sending at
        // the same moment touch the same per-address counter, and DynamoDB cancels one
        // transaction with TransactionConflict. Nobody broke a limit: try again, briefly.
        const conflictOnly =
          reasons.some((r) => r.Code === 'TransactionConflict') &&
          !reasons.some((r) => r.Code === 'ConditionalCheckFailed');
        if (!conflictOnly || attempt >= CONFLICT_ATTEMPTS) break;
        await sleep(conflictBackoffMs(attempt));
      }
      let retryAt = 0;
      let key = '';
      reasons.forEach((reason, index) => {
        if (reason.Code !== 'ConditionalCheckFailed') return;
        const item = items[index];
        if (!item) return;
        const old = reason.Item ? { last_at: reason.Item.last_at?.N } : undefined;
        const at = item.retryAt(old);
        if (at > retryAt) {
          retryAt = at;
          key = item.limit.key;
        }
      });
      // Still conflicting after the tries, or cancelled for another reason: a short
      // cooldown, which is what the visitor's retry needs.
      if (retryAt === 0) return { allowed: false, retryAfterSeconds: 1, key: limits[0]?.key ?? '' };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((retryAt - nowMs) / 1000)), key };
    },
  };
}
