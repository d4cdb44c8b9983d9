import { type Db, DeleteCommand, isConditionFailed, PutCommand, UpdateCommand } from '../lib/db';
import * as v from 'valibot';

// One OTP record per number (pk = the 91-prefixed number): storing a new code replaces
// any older one. Only a keyed hash of the code is stored. `ttl` lets DynamoDB remove
// the record; expiry is also checked on every read, since TTL deletion can lag.
const recordSchema = v.object({
  pk: v.string(),
  code_hash: v.string(),
  expires_at: v.number(),
  attempts: v.number(),
  created_at: v.string(),
  /** Names the send that made this code; its delivery handle carries it (see otp-verify). */
  request_id: v.optional(v.string()),
});
export type OtpRecord = v.InferOutput<typeof recordSchema>;

type AttemptResult =
  { kind: 'counted'; record: OtpRecord } | { kind: 'not-found' } | { kind: 'exhausted'; record: OtpRecord };

export interface OtpStore {
  save(phone: string, codeHash: string, now: Date, ttlSeconds: number, requestId: string): Promise<void>;
  /** Counts one guess atomically before the code is compared, so no guess goes uncounted. */
  takeAttempt(phone: string, maxAttempts: number): Promise<AttemptResult>;
  /**
   * Deletes the record if it still holds this code (a newer code is left alone). True
   * only for the one caller whose delete took it: a right code is spent exactly once.
   */
  remove(phone: string, codeHash: string): Promise<boolean>;
}

export function makeOtpStore(db: Db, tableName: string): OtpStore {
  return {
    async save(phone, codeHash, now, ttlSeconds, requestId) {
      const expiresAt = now.getTime() + ttlSeconds * 1000;
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            pk: phone,
            code_hash: codeHash,
            expires_at: expiresAt,
            attempts: 0,
            created_at: now.toISOString(),
            request_id: requestId,
            ttl: Math.ceil(expiresAt / 1000) + 60,
          },
        }),
      );
    },
    async takeAttempt(phone, maxAttempts) {
      try {
        const result = await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { pk: phone },
            UpdateExpression: 'SET attempts = attempts + :one',
            ConditionExpression: 'attribute_exists(pk) AND attempts < :max',
            ExpressionAttributeValues: { ':one': 1, ':max': maxAttempts },
            ReturnValues: 'ALL_NEW',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return { kind: 'counted', record: v.parse(recordSchema, result.Attributes) };
      } catch (error) {
        if (!(isConditionFailed(error))) throw error;
        const old = v.safeParse(recordSchema, error.Item ? unmarshallLoose(error.Item) : undefined);
        return old.success ? { kind: 'exhausted', record: old.output } : { kind: 'not-found' };
      }
    },
    async remove(phone, codeHash) {
      try {
        await db.send(
          new DeleteCommand({
            TableName: tableName,
            Key: { pk: phone },
            ConditionExpression: 'code_hash = :hash',
            ExpressionAttributeValues: { ':hash': codeHash },
          }),
        );
        return true;
      } catch (error) {
        if (!(isConditionFailed(error))) throw error;
        return false;
      }
    },
  };
}

/** ConditionalCheckFailedException.Item is in AttributeValue form. */
function unmarshallLoose(item: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(item)) {
    const v = value as { S?: string; N?: string; BOOL?: boolean };
    out[key] = v.S ?? (v.N !== undefined ? Number(v.N) : v.BOOL);
  }
  return out;
}
