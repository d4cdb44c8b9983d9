import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { ApplicationFields, ApplicationStatus } from '../../rules/application';

// Applications and their uniqueness guards live in one table. The guard item
// (pk `PHONE#<91-number>`) and the application (pk `APP#<id>`) are written in one
// transaction with conditions, so one number yields one application whatever the
// concurrency; the verification token is spent in the same transaction.

export interface Consent {
  readonly terms_version: string;
  readonly language: 'en' | 'ta';
  readonly accepted_at: string;
}

export interface NewApplication extends Omit<ApplicationFields, 'accept_terms' | 'email'> {
  readonly id: string;
  readonly phone_number: string;
  readonly email?: string;
  readonly submitted_at: string;
  readonly consent: Consent;
}

/** The stored application: the spec's fields plus the keys of the listing indexes. */
export interface StoredApplication extends NewApplication {
  readonly want_to_volunteer: false;
  readonly want_to_join_and_volunteer: false;
  readonly application_status: ApplicationStatus;
  readonly updated_at: string;
}

export type CreateResult = { kind: 'created' } | { kind: 'already-registered' } | { kind: 'token-spent' };

export interface ApplicationRepository {
  isRegistered(phone: string): Promise<boolean>;
  create(
    application: NewApplication,
    spend: { table: string; tokenId: string; expiresAt: number },
  ): Promise<CreateResult>;
  get(id: string): Promise<Record<string, unknown> | undefined>;
}

export const applicationKey = (id: string) => `APP#${id}`;
/** `<ISO time>#<id>`, the sort key of every listed application (its id in group 1). */
export const submittedSortPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z#([^#]+)$/;
export const phoneGuardKey = (phone: string) => `PHONE#${phone}`;

export function toStoredItem(application: NewApplication, status: ApplicationStatus = 'pending') {
  const stored: StoredApplication = {
    ...application,
    want_to_volunteer: false,
    want_to_join_and_volunteer: false,
    application_status: status,
    updated_at: application.submitted_at,
  };
  return { ...stored, ...indexKeys(stored) };
}

/**
 * Attributes derived from the fields: the keys of the listing indexes
 * (lib/table-definitions.ts) and the lower-case text that the dashboard search reads.
 */
export function indexKeys(a: {
  id: string;
  submitted_at: string;
  revenue_district?: string;
  application_status: ApplicationStatus;
  name: string;
  phone_number: string;
  email?: string;
}) {
  return {
    pk: applicationKey(a.id),
    list_pk: 'APP',
    submitted_sort: `${a.submitted_at}#${a.id}`,
    district_status: `${a.revenue_district ?? 'Unknown'}#${a.application_status}`,
    search_text: [a.name, a.phone_number, a.email ?? ''].join('\n').toLowerCase(),
  };
}

export function makeApplicationRepository(db: DynamoDBDocumentClient, tableName: string): ApplicationRepository {
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
      const transaction = new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName,
              Item: {
                pk: phoneGuardKey(application.phone_number),
                application_id: application.id,
                created_at: application.submitted_at,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Put: {
              TableName: tableName,
              Item: toStoredItem(application),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Put: {
              TableName: spend.table,
              Item: {
                pk: `VERIFICATION#${spend.tokenId}`,
                spent_at: application.submitted_at,
                ttl: spend.expiresAt + 60,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
      });
      // A conflict with a concurrent transaction on the same number is not an answer:
      // try again until the conditions decide (the winner's guard then fails ours).
      for (let attempt = 1; ; attempt++) {
        try {
          await db.send(transaction);
          return { kind: 'created' };
        } catch (error) {
          if (!(error instanceof TransactionCanceledException)) throw error;
          const reasons = error.CancellationReasons ?? [];
          const [guard, , token] = reasons;
          if (guard?.Code === 'ConditionalCheckFailed') return { kind: 'already-registered' };
          if (token?.Code === 'ConditionalCheckFailed') return { kind: 'token-spent' };
          const conflict = reasons.some((r) => r.Code === 'TransactionConflict');
          if (!conflict || attempt >= 8) throw error;
          await new Promise((r) => setTimeout(r, Math.random() * 20 * attempt));
        }
      }
    },
    async get(id) {
      const result = await db.send(new GetCommand({ TableName: tableName, Key: { pk: applicationKey(id) } }));
      return result.Item;
    },
  };
}
