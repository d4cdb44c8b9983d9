import { createHmac } from 'node:crypto';
import { BatchGetCommand, type Db, GetCommand, isConditionFailed, PutCommand, UpdateCommand } from '../lib/db';

// Meta caps how many unique people a business portfolio may message in a rolling 24
// hours outside a conversation (its messaging tier: 250 for a new portfolio, then 2,000,
// 10,000, 100,000, unlimited). We count them ourselves so that a stage with SMS sends a
// new number straight to SMS once the tier is full, and the operator is warned at 80 %.
// One item per recipient (a keyed hash of the number, never the number) marks the start
// of its 24 hours; hourly counters hold how many new recipients each hour brought.

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** The 24-hour count is read at most this often per container: the tier check is a guard, not an account. */
const COUNT_CACHE_MS = 10_000;

export interface WhatsAppRecipients {
  /** Whether WhatsApp has had a message for `phone` from us in the last 24 hours (it does not count again). */
  isRecent(phone: string, now: Date): Promise<boolean>;
  /** Unique recipients of the last 24 hours (whole hours: the current one and the 23 before it). */
  count(now: Date): Promise<number>;
  /** Records an accepted WhatsApp message to `phone`; returns the 24-hour count after it. */
  record(phone: string, now: Date): Promise<number>;
}

const hourKey = (ms: number) => `WA-UNIQUE#${new Date(Math.floor(ms / HOUR_MS) * HOUR_MS).toISOString().slice(0, 13)}`;

export function makeWhatsAppRecipients(
  db: Db,
  tableName: string,
  hashKey: () => Promise<string>,
): WhatsAppRecipients {
  let cached: { at: number; count: number } | undefined;
  const recipientKey = async (phone: string) =>
    `WA-RCPT#${createHmac('sha256', await hashKey())
      .update(`wa-recipient:${phone}`)
      .digest('base64url')
      .slice(0, 32)}`;

  const count = async (now: Date): Promise<number> => {
    const nowMs = now.getTime();
    if (cached && nowMs - cached.at < COUNT_CACHE_MS && nowMs >= cached.at) return cached.count;
    const keys = Array.from({ length: 24 }, (_, i) => ({ pk: hourKey(nowMs - i * HOUR_MS) }));
    const result = await db.send(
      new BatchGetCommand({ RequestItems: { [tableName]: { Keys: keys, ProjectionExpression: 'pk, n' } } }),
    );
    const total = (result.Responses?.[tableName] ?? []).reduce((sum, item) => sum + (Number(item.n) || 0), 0);
    cached = { at: nowMs, count: total };
    return total;
  };

  return {
    async isRecent(phone, now) {
      const result = await db.send(new GetCommand({ TableName: tableName, Key: { pk: await recipientKey(phone) } }));
      return Number(result.Item?.first_at ?? 0) > now.getTime() - DAY_MS;
    },
    count,
    async record(phone, now) {
      const nowMs = now.getTime();
      try {
        await db.send(
          new PutCommand({
            TableName: tableName,
            Item: { pk: await recipientKey(phone), first_at: nowMs, ttl: Math.ceil((nowMs + DAY_MS + HOUR_MS) / 1000) },
            ConditionExpression: 'attribute_not_exists(first_at) OR first_at <= :cutoff',
            ExpressionAttributeValues: { ':cutoff': nowMs - DAY_MS },
          }),
        );
      } catch (error) {
        if (isConditionFailed(error)) return count(now);
        throw error;
      }
      await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { pk: hourKey(nowMs) },
          UpdateExpression: 'ADD n :one SET #ttl = :ttl',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':one': 1, ':ttl': Math.ceil((nowMs + DAY_MS + 2 * HOUR_MS) / 1000) },
        }),
      );
      if (cached) cached = { ...cached, count: cached.count + 1 };
      return count(now);
    },
  };
}
