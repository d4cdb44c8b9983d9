import { type Db, GetCommand, isTransactionCanceled, TransactWriteCommand } from '../lib/db';
import * as v from 'valibot';
import {
  type ApplicationItem,
  applicationKey,
  guardItem,
  type NewApplication,
  phoneGuardKey,
  type StoredItem,
  storedApplicationSchema,
  toStoredItem,
} from './application-items';

// Applications and their uniqueness guards live in one table. The guard item
// (pk `PHONE#<91-number>`) and the application (pk `APP#<id>`) are written in one
// transaction with conditions, so one number yields one application whatever the
// concurrency; the verification token is spent in the same transaction. The form's
// submissions and the import command (ops/import.ts) both write through `insert`.

type CreateResult = { kind: 'created' } | { kind: 'already-registered' } | { kind: 'token-spent' };

/** `present`: an application with this id is stored already; `already-registered`: the number has another (`by`). */
type InsertResult =
  { kind: 'created' } | { kind: 'already-registered'; by?: string } | { kind: 'token-spent' } | { kind: 'present' };

/** The verification token spent by the submission, in the OTP table. */
interface Spend {
  readonly table: string;
  readonly tokenId: string;
  readonly expiresAt: number;
}

export interface ApplicationRepository {
  isRegistered(phone: string): Promise<boolean>;
  create(application: NewApplication, spend: Spend): Promise<CreateResult>;
  /** Writes the item and its number's guard (and spends the token) in one transaction. */
  insert(item: ApplicationItem, spend?: Spend): Promise<InsertResult>;
  /** The stored application, parsed; `consistent` for a read that must see a write just made. */
  get(id: string, options?: { consistent?: boolean }): Promise<StoredItem | undefined>;
}

function insertTransaction(tableName: string, item: ApplicationItem, spend: Spend | undefined) {
  return new TransactWriteCommand({
    TransactItems: [
      {
        // The number's guard: free, or already held by this same application (an import run again).
        Put: {
          TableName: tableName,
          Item: guardItem(item),
          ConditionExpression: 'attribute_not_exists(pk) OR application_id = :id',
          ExpressionAttributeValues: { ':id': item.id },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      { Put: { TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
      ...(spend
        ? [
            {
              Put: {
                TableName: spend.table,
                Item: { pk: `VERIFICATION#${spend.tokenId}`, spent_at: item.submitted_at, ttl: spend.expiresAt + 60 },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ]
        : []),
    ],
  });
}

export function makeApplicationRepository(db: Db, tableName: string): ApplicationRepository {
  const insert: ApplicationRepository['insert'] = async (item, spend) => {
    const transaction = insertTransaction(tableName, item, spend);
    // A conflict with a concurrent transaction on the same number is not an answer:
    // try again until the conditions decide (the winner's guard then fails ours).
    for (let attempt = 1; ; attempt++) {
      try {
        await db.send(transaction);
        return { kind: 'created' };
      } catch (error) {
        if (!isTransactionCanceled(error)) throw error;
        const reasons = error.CancellationReasons ?? [];
        const [guard, application, token] = reasons;
        if (guard?.Code === 'ConditionalCheckFailed') {
          const by = guard.Item?.application_id?.S;
          return { kind: 'already-registered', ...(by && { by }) };
        }
        if (token?.Code === 'ConditionalCheckFailed') return { kind: 'token-spent' };
        if (application?.Code === 'ConditionalCheckFailed') return { kind: 'present' };
        const conflict = reasons.some((r) => r.Code === 'TransactionConflict');
        if (!conflict || attempt >= 8) throw error;
        await new Promise((r) => setTimeout(r, Math.random() * 20 * attempt));
      }
    }
  };

  return {
    async isRegistered(phone) {
      const result = await db.send(
        new GetCommand({
          TableName: tableName,
          Key: { pk: phoneGuardKey(phone) },
          ConsistentRead: true,
          ProjectionExpression: 'pk',
        }),
      );
      return result.Item !== undefined;
    },
    async create(application, spend) {
      const result = await insert(toStoredItem(application), spend);
      // A new id is a random UUID: finding it stored already is a fault, not an answer.
      if (result.kind === 'present') throw new Error(`Application ${application.id} is stored already`);
      return result.kind === 'already-registered' ? { kind: 'already-registered' } : result;
    },
    insert,
    async get(id, options) {
      const result = await db.send(
        new GetCommand({
          TableName: tableName,
          Key: { pk: applicationKey(id) },
          ConsistentRead: options?.consistent ?? false,
        }),
      );
      return result.Item && v.parse(storedApplicationSchema, result.Item);
    },
  };
}
