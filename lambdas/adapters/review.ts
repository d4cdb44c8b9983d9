import { randomUUID } from 'node:crypto';
import {
  BatchWriteCommand,
  type Db,
  isTransactionCanceled,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '../lib/db';
import * as v from 'valibot';
import type { ApplicationStatus } from '../../rules/application';
import { type AuditEntry, auditEntrySchema } from '../../rules/staff-api';
import type { StaffScope } from '../../rules/staff-scope';
import { applicationKey, phoneGuardKey } from './application-items';
import { makeApplicationRepository } from './applications';
import { type ReadScope, scopeKey } from './read-audit';
import { makeMemberSequence } from './member-numbers';
import {
  byOf,
  type ChangeLimits,
  changeStatus,
  type ReviewTables,
  type StatusChangeOutcome,
  STATUS_CHANGED_AT,
  type Store,
} from './status-change';

export { REFERRAL_CODE, STATUS_CHANGED_AT } from './status-change';
import { cardGuardDelete } from './member-cards';
import { withdrawalConfirmationPut } from './withdrawal-confirmations';
import { APPLICANT_ACTOR } from '../../rules/my-application';

// The review workflow's writes, each with its audit entry in the same transaction:
// status changes (who, when, from, to, note), erasure on request (the record and its
// guard go; only who erased which id and when is kept), and exports (who, when, which
// screen and filters, how many rows: counted by the server as it serves them,
// lambdas/adapters/read-audit.ts).

// Who is named: the stable subject (`by_sub`) and the email as it was at the time (`by`),
// never rewritten. An access token carries no email: then `by` is the subject too.

export interface Actor {
  readonly sub: string;
  /** Empty when the token carried none (an access token). */
  readonly email: string;
}

export interface ReviewStore {
  changeStatus(
    id: string,
    status: ApplicationStatus,
    actor: Actor,
    now: Date,
    note?: string,
    /** The changer's districts (issue 17): an application outside them is not found, even if moved meanwhile. */
    scope?: StaffScope,
    limits?: ChangeLimits,
  ): Promise<StatusChangeOutcome>;
  auditOf(id: string): Promise<AuditEntry[]>;
  /**
   * The district of each application that exists (consistent reads; undefined: no
   * district); an id missing from the map names nothing. For checking a selection
   * against a staff member's scope before any change.
   */
  districtsOf(ids: readonly string[]): Promise<Map<string, string | undefined>>;
  /**
   * `unchangedSince`: erase only if the application still has this status, set at this
   * time (the retention job: a status changed meanwhile keeps it); `not-found` otherwise.
   */
  erase(id: string, actor: Actor, now: Date, unchangedSince?: StatusAt): Promise<'erased' | 'not-found'>;
  /**
   * The applicant's own withdrawal (issue 21): `erase` by the applicant and, in the same
   * transaction, the item its confirmation message is sent from (`WITHDRAWN#<id>` in
   * `tables.deliveries`: the number and language, a day at most; withdrawal-confirmations.ts).
   */
  withdraw(id: string, now: Date): Promise<'erased' | 'not-found'>;
  /** `districts`: the exporter's scope (district ids, or 'all'), kept in the audit entry. */
  startExport(scope: ReadScope, actor: Actor, now: Date, districts?: readonly string[] | 'all'): Promise<string>;
  /** Only by whoever started it, once: `not-found` otherwise. The rows are those the server served for it. */
  completeExport(exportId: string, actor: Actor, now: Date): Promise<{ rows: number } | 'not-found'>;
}

/** A status and when the application got it (`status_changed_at`, else `updated_at` for older items). */
export interface StatusAt {
  readonly status: ApplicationStatus;
  readonly changedAt: string;
}

/** The erasure's condition on the application: it exists and, when asked, still has `unchangedSince`. */
function eraseCondition(unchangedSince?: StatusAt) {
  if (!unchangedSince) return { ConditionExpression: 'attribute_exists(pk)' };
  return {
    ConditionExpression: `application_status = :erase_status AND (${STATUS_CHANGED_AT} = :erase_at OR (attribute_not_exists(${STATUS_CHANGED_AT}) AND updated_at = :erase_at))`,
    ExpressionAttributeValues: { ':erase_status': unchangedSince.status, ':erase_at': unchangedSince.changedAt },
  };
}

async function erase(
  { db, tables, applications }: Store,
  id: string,
  actor: Actor,
  now: Date,
  { unchangedSince, confirmTo }: { unchangedSince?: StatusAt; confirmTo?: string } = {},
): Promise<'erased' | 'not-found'> {
  const current = await applications.get(id, { consistent: true });
  if (!current) return 'not-found';
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: tables.applications,
              Key: { pk: applicationKey(id) },
              ...eraseCondition(unchangedSince),
            },
          },
          {
            Delete: {
              TableName: tables.applications,
              Key: { pk: phoneGuardKey(current.phone_number) },
              ConditionExpression: 'attribute_not_exists(pk) OR application_id = :id',
              ExpressionAttributeValues: { ':id': id },
            },
          },
          // The card's guard (issue 20): its link and QR then name nothing.
          ...cardGuardDelete(tables.applications, id, current),
          // The applicant's withdrawal only: what its confirmation message needs once the application is gone.
          ...(confirmTo ? withdrawalConfirmationPut(confirmTo, id, current, now) : []),
          {
            Put: {
              TableName: tables.audit,
              Item: {
                pk: 'ERASURES',
                sk: `${now.toISOString()}#${id}`,
                action: 'erase',
                application_id: id,
                at: now.toISOString(),
                by: byOf(actor),
                by_sub: actor.sub,
              },
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (isTransactionCanceled(error) && error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed')
      return 'not-found';
    throw error;
  }
  // The earlier trail may hold notes about the person: it goes too.
  const trail = await db.send(
    new QueryCommand({
      TableName: tables.audit,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': applicationKey(id) },
      ProjectionExpression: 'pk, sk',
    }),
  );
  const keys = trail.Items ?? [];
  for (let i = 0; i < keys.length; i += 25) {
    await db.send(
      new BatchWriteCommand({
        RequestItems: {
          [tables.audit]: keys
            .slice(i, i + 25)
            .map((k) => ({ DeleteRequest: { Key: { pk: String(k.pk), sk: String(k.sk) } } })),
        },
      }),
    );
  }
  return 'erased';
}

export function makeReviewStore(
  db: Db,
  tables: ReviewTables,
  options: { pause?: (ms: number) => Promise<void> } = {},
): ReviewStore {
  const store: Store = {
    ...options,
    db,
    tables,
    applications: makeApplicationRepository(db, tables.applications),
    members: makeMemberSequence(db, tables.applications, tables.audit),
  };
  return {
    changeStatus: (id, status, actor, now, note, scope, limits) =>
      changeStatus(store, id, status, actor, now, note, scope, limits),

    async auditOf(id) {
      const result = await db.send(
        new QueryCommand({
          TableName: tables.audit,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': applicationKey(id) },
          ScanIndexForward: false,
          Limit: 200,
        }),
      );
      return (result.Items ?? []).map((item: Record<string, unknown>) =>
        v.parse(auditEntrySchema, { ...item, by: item.by || item.by_sub }),
      );
    },

    erase: (id, actor, now, unchangedSince) => erase(store, id, actor, now, { unchangedSince }),

    withdraw(id, now) {
      if (!tables.deliveries) throw new Error('The withdrawal needs the deliveries table');
      return erase(store, id, APPLICANT_ACTOR, now, { confirmTo: tables.deliveries });
    },

    async districtsOf(ids) {
      const found = new Map<string, string | undefined>();
      for (let i = 0; i < ids.length; i += 25) {
        const chunk = ids.slice(i, i + 25);
        const items = await Promise.all(chunk.map((id) => store.applications.get(id, { consistent: true })));
        items.forEach((item, j) => item && found.set(chunk[j]!, item.revenue_district));
      }
      return found;
    },

    async startExport(scope, actor, now, districts = 'all') {
      const exportId = randomUUID();
      await db.send(
        new PutCommand({
          TableName: tables.audit,
          Item: {
            pk: 'EXPORTS',
            sk: exportId,
            action: 'export',
            at: now.toISOString(),
            by: byOf(actor),
            by_sub: actor.sub,
            screen: scope.screen,
            filters: scope.filters,
            // Whose districts the rows are from: the exporter's scope.
            districts,
            // The pages read for it must ask for the same screen and filters to count.
            scope_key: scopeKey(scope),
            rows_read: 0,
            rows: null,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return exportId;
    },

    completeExport: makeExportCompletion(db, tables.audit).completeExport,
  };
}

/**
 * Completing an export touches its audit entry only: the function that does it is
 * granted the audit table and nothing else (lib/api-routes.ts).
 */
export function makeExportCompletion(db: Db, auditTable: string): Pick<ReviewStore, 'completeExport'> {
  return {
    async completeExport(exportId, actor, now) {
      try {
        const result = await db.send(
          new UpdateCommand({
            TableName: auditTable,
            Key: { pk: 'EXPORTS', sk: exportId },
            UpdateExpression: 'SET #rows = rows_read, completed_at = :now',
            // Someone else's export, one already completed, or a bulk read: nothing to complete.
            ConditionExpression: 'by_sub = :sub AND attribute_exists(rows_read) AND attribute_not_exists(completed_at)',
            ExpressionAttributeNames: { '#rows': 'rows' },
            ExpressionAttributeValues: { ':sub': actor.sub, ':now': now.toISOString() },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return { rows: Number(result.Attributes?.rows ?? 0) };
      } catch (error) {
        if ((error as Error).name === 'ConditionalCheckFailedException') return 'not-found';
        throw error;
      }
    },
  };
}
