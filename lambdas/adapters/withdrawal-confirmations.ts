import * as v from 'valibot';
import { notArray } from '../../rules/schema';
import { type Db, DeleteCommand, GetCommand } from '../lib/db';

// What the confirmation of an applicant's own withdrawal is sent from (issue 21,
// docs/MESSAGING.md "The withdrawal's confirmation"). The application is gone by the time
// the outbound consumer sends, and numbers stay out of the queue, so the withdrawal's own
// transaction leaves one item in the deliveries table, `WITHDRAWN#<application id>`: the
// number and the language to write in, for a day at most. The consumer reads it, sends,
// and deletes it; the TTL takes one whose send never succeeded. Staff erasure and the
// retention job write none.

/** How long the number may wait for the confirmation: the consumer's retries fit well inside. */
export const WITHDRAWAL_CONFIRMATION_TTL_SECONDS = 86_400;

export const withdrawalConfirmationKey = (applicationId: string) => `WITHDRAWN#${applicationId}`;

export interface WithdrawalConfirmation {
  /** The 91-number the application was made with. */
  readonly phone: string;
  /** The language the applicant applied in. */
  readonly language: 'en' | 'ta';
}

const language = v.picklist(['en', 'ta']);
const phone = v.pipe(v.string(), v.regex(/^\d{12}$/));

/** What the confirmation needs of the application: its number, and the language applied in (older rows: English). */
const applicationSchema = v.object({
  phone_number: phone,
  language: v.optional(language),
  consent: v.optional(notArray(v.object({ language: v.optional(language) }))),
});

/**
 * The item's Put, for the erasure's own transaction (lambdas/adapters/review.ts `withdraw`):
 * none when the application holds no number to write to.
 */
export function withdrawalConfirmationPut(
  tableName: string,
  applicationId: string,
  application: Record<string, unknown>,
  now: Date,
) {
  const parsed = v.safeParse(applicationSchema, application);
  if (!parsed.success) return [];
  const { phone_number, consent } = parsed.output;
  return [
    {
      Put: {
        TableName: tableName,
        Item: {
          pk: withdrawalConfirmationKey(applicationId),
          phone_number,
          language: parsed.output.language ?? consent?.language ?? 'en',
          created_at: now.toISOString(),
          ttl: Math.floor(now.getTime() / 1000) + WITHDRAWAL_CONFIRMATION_TTL_SECONDS,
        },
      },
    },
  ];
}

const itemSchema = v.object({ phone_number: phone, language, ttl: v.number() });

export interface WithdrawalConfirmationStore {
  /** The item, unless sent (deleted) or expired: DynamoDB deletes an expired item up to two days late. */
  get(applicationId: string, now: Date): Promise<WithdrawalConfirmation | undefined>;
  /** Deletes the item once the confirmation went. */
  remove(applicationId: string): Promise<void>;
}

export function makeWithdrawalConfirmationStore(db: Db, tableName: string): WithdrawalConfirmationStore {
  const key = (applicationId: string) => ({ pk: withdrawalConfirmationKey(applicationId) });
  return {
    async get(applicationId, now) {
      const { Item } = await db.send(
        new GetCommand({ TableName: tableName, Key: key(applicationId), ConsistentRead: true }),
      );
      const parsed = v.safeParse(itemSchema, Item);
      if (!parsed.success || parsed.output.ttl * 1000 <= now.getTime()) return undefined;
      return { phone: parsed.output.phone_number, language: parsed.output.language };
    },
    async remove(applicationId) {
      await db.send(new DeleteCommand({ TableName: tableName, Key: key(applicationId) }));
    },
  };
}
