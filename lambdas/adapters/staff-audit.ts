import { randomUUID } from 'node:crypto';
import { type Db, PutCommand } from '../lib/db';
import type { StaffRole } from '../../rules/staff-scope';
import type { Actor } from './review';

// Every change to the staff made from the staff area, in the audit table beside the
// applications' entries: partition `STAFF`, one item per change, sorted by time. Who did
// it is the acting admin (their email as it was, and sub, as the review's entries keep
// them); to whom is the member's sub only, never their email, so that the entry names no
// one who is not staff acting. A reset changes the member's sub: the entry keeps both.

type StaffChange =
  | {
      readonly action: 'staff-invite';
      readonly sub: string;
      readonly role: StaffRole;
      readonly districts: readonly string[];
    }
  | {
      readonly action: 'staff-assign';
      readonly sub: string;
      readonly role: StaffRole;
      readonly districts: readonly string[];
    }
  | { readonly action: 'staff-disable' | 'staff-enable'; readonly sub: string }
  | { readonly action: 'staff-reset-mfa'; readonly sub: string; readonly previousSub: string };

export const STAFF_AUDIT_PK = 'STAFF';

export interface StaffAudit {
  record(change: StaffChange, actor: Actor, now: Date): Promise<void>;
}

export function makeStaffAudit(db: Db, auditTable: string): StaffAudit {
  return {
    async record(change, actor, now) {
      const { action, sub, ...details } = change;
      await db.send(
        new PutCommand({
          TableName: auditTable,
          Item: {
            pk: STAFF_AUDIT_PK,
            sk: `${now.toISOString()}#${randomUUID()}`,
            action,
            at: now.toISOString(),
            by: actor.email || actor.sub,
            by_sub: actor.sub,
            target_sub: sub,
            ...('districts' in details ? { role: details.role, districts: details.districts.join(',') } : {}),
            ...('previousSub' in details ? { previous_sub: details.previousSub } : {}),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },
  };
}
