import { randomUUID } from 'node:crypto';
import { type Db, PutCommand } from '../lib/db';
import type { Actor } from './review';

// Every answer to a grievance, every closing, and each retention run's erasures of closed
// ones, in the audit table beside the applications', staff's and campaigns' entries:
// partition `GRIEVANCE`, one item per change, sorted by time. Who did it as the review's
// entries keep it (their email as it was, and sub); what: the ticket's id and reference,
// never its text, its answer or its number, so that an entry outlives the ticket and holds
// nothing of the person. The retention job's entry is a count only.

export const GRIEVANCE_AUDIT_PK = 'GRIEVANCE';

type GrievanceChange =
  | { readonly action: 'grievance-answer' | 'grievance-close'; readonly id: string; readonly reference: string }
  | { readonly action: 'grievance-retention'; readonly erased: number };

/** The audit entry's Put: inside the change's own transaction, or alone. */
export function grievanceAuditPut(auditTable: string, change: GrievanceChange, actor: Actor, now: Date) {
  return {
    TableName: auditTable,
    Item: {
      pk: GRIEVANCE_AUDIT_PK,
      sk: `${now.toISOString()}#${randomUUID()}`,
      action: change.action,
      at: now.toISOString(),
      by: actor.email || actor.sub,
      by_sub: actor.sub,
      ...('id' in change ? { grievance_id: change.id, reference: change.reference } : { erased: change.erased }),
    },
    ConditionExpression: 'attribute_not_exists(pk)',
  };
}

/** Writes one entry on its own (the retention job's count). */
export async function recordGrievanceAudit(
  db: Db,
  auditTable: string,
  change: GrievanceChange,
  actor: Actor,
  now: Date,
): Promise<void> {
  await db.send(new PutCommand(grievanceAuditPut(auditTable, change, actor, now)));
}
