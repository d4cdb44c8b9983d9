import { randomUUID } from 'node:crypto';
import { type Db, isTransactionCanceled, TransactWriteCommand } from '../lib/db';
import type { ApplicationStatus } from '../../rules/application';
import { everyDistrict, inScope, type StaffScope } from '../../rules/staff-scope';
import { applicationKey, campaignKeys, districtStatus, listingIndexes } from './application-items';
import type { ApplicationRepository } from './applications';
import { referralCodeKey } from './campaigns';
import { cardIssue } from './member-cards';
import { REFERRAL_CODE_LENGTH } from '../../rules/attribution';
import { randomCode } from '../lib/short-codes';
import { MEMBER_NUMBER, type MemberSequence, memberNumberIssue } from './member-numbers';
import { logger } from '../lib/logger';
import type { Actor } from './review';

// A status change (the review workflow's, lambdas/adapters/review.ts): one transaction of
// the application (only if still as read), its audit entry, and on a first approval the
// member's referral code and member number; tried again after a concurrent change or a
// conflict, within the caller's time.

export const byOf = (actor: Actor) => actor.email || actor.sub;

/**
 * When the application's status last became what it is (ISO). Set only when the status
 * really changes: a decision notice goes only while this is still the time of the change
 * it notifies.
 */
export const STATUS_CHANGED_AT = 'status_changed_at';

/** `unchanged`: the application already had that status; nothing is written, not even the note or an audit entry. */
/**
 * `not-done`: it could not be made in the time or tries it had (other changes of the same
 * application kept it busy); nothing of it was written, and it can be sent again.
 */
export type StatusChangeOutcome = 'changed' | 'unchanged' | 'not-found' | 'not-done';

const auditKey = (at: Date) => `${at.toISOString()}#${randomUUID()}`;

export interface ReviewTables {
  readonly applications: string;
  readonly audit: string;
  /** Given to the status changes (issue 19): a first approval issues the member's referral code there. */
  readonly campaigns?: string;
  /** Given to the applicant's withdrawal (issue 21): its confirmation's item goes there (review.ts `withdraw`). */
  readonly deliveries?: string;
}

export interface Store {
  readonly db: Db;
  readonly tables: ReviewTables;
  readonly applications: ApplicationRepository;
  readonly members: MemberSequence;
  /** The wait between tries after a conflict (tests: none). */
  readonly pause?: (ms: number) => Promise<void>;
}

/** The application's attribute holding the member's referral code (issue 19). */
export const REFERRAL_CODE = 'referral_code';

/**
 * A member's referral code, issued on their first approval in the approval's own
 * transaction: `REF#<code>` names the application (never given twice: the put is
 * conditional), and the application keeps the code, so it never changes even if the
 * status moves away and back. Nothing when the application has one already.
 */
export function referralIssue(tables: ReviewTables, id: string, current: Record<string, unknown>, status: string, now: Date) {
  if (status !== 'approved' || !tables.campaigns || typeof current[REFERRAL_CODE] === 'string') return undefined;
  const code = randomCode(REFERRAL_CODE_LENGTH);
  return {
    set: `, ${REFERRAL_CODE} = :rc`,
    condition: ` AND attribute_not_exists(${REFERRAL_CODE})`,
    values: { ':rc': code },
    put: {
      Put: {
        TableName: tables.campaigns,
        Item: { pk: referralCodeKey(code), application_id: id, issued_at: now.toISOString() },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  };
}

/** How long a status change may keep trying, and how it waits between tries (tests: no real waits). */
export interface ChangeLimits {
  /** Epoch ms: no try starts after it; the change then ends `not-done` (nothing of it written). */
  readonly deadline?: number;
}

/** Tries of one status change: re-reads after a concurrent change, waits after a conflict. */
const MAX_ATTEMPTS = 12;
/** The wait after the n-th TransactionConflict: random(0, min(1 s, 20 ms × 2^n)), full jitter. */
const conflictWait = (attempt: number) => Math.random() * Math.min(1000, 20 * 2 ** attempt);
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Why DynamoDB canceled a status change's transaction: `changed` when a condition was
 * false (someone changed the application, or a code or number was taken: read again
 * now), `conflict` when only another transaction held an item (TransactionConflict:
 * nothing is wrong, wait a random while and try the same again).
 */
function cancellation(error: { CancellationReasons?: { Code?: string }[] }): 'changed' | 'conflict' {
  const codes = (error.CancellationReasons ?? []).map((reason) => reason.Code);
  return codes.includes('TransactionConflict') && !codes.includes('ConditionalCheckFailed') ? 'conflict' : 'changed';
}

export async function changeStatus(
  store: Store,
  id: string,
  status: ApplicationStatus,
  actor: Actor,
  now: Date,
  note?: string,
  scope: StaffScope = everyDistrict,
  limits: ChangeLimits = {},
): Promise<StatusChangeOutcome> {
  const { applications, members } = store;
  // A first approval's member number (issue 20, member-numbers.ts): drawn once, kept
  // across the retries, and listed as unused when the approval ends without it.
  let drawn: number | undefined;
  const giveUp = async <T>(outcome: T): Promise<T> => {
    if (drawn !== undefined) await recordUnused(members, drawn, id, now);
    drawn = undefined;
    return outcome;
  };
  const late = () => limits.deadline !== undefined && Date.now() >= limits.deadline;
  // Optimistic: the update holds only if the status is still the one read, so the
  // audit entry's "from" is always true. A concurrent change makes us read again.
  for (let attempt = 1; ; attempt++) {
    // Out of time or of tries: a canceled transaction wrote nothing, so the caller can say
    // "not done" (and the admin send it again) instead of failing the whole request.
    if (late() || attempt > MAX_ATTEMPTS) return giveUp('not-done' as const);
    const current = await applications.get(id, { consistent: true });
    if (!current || !inScope(scope, current.revenue_district)) return giveUp('not-found' as const);
    // Setting the status it already has changes nothing, so nothing goes in the trail.
    if (current.application_status === status) return giveUp('unchanged' as const);
    const numbered = typeof current[MEMBER_NUMBER] === 'string';
    // Numbered meanwhile by a concurrent approval (then moved away again): ours goes unused.
    if (numbered) await giveUp(undefined);
    else if (status === 'approved' && drawn === undefined && !late()) drawn = await members.draw();
    // Each step starts only in time, so that what is in flight at the deadline is one call.
    if (late()) return giveUp('not-done' as const);
    const member =
      drawn === undefined || numbered ? undefined : memberNumberIssue(store.tables.applications, id, drawn, now);
    try {
      await store.db.send(statusTransaction(store.tables, { id, current, status, actor, now, note, scope, member }));
      drawn = undefined;
      return 'changed';
    } catch (error) {
      // Any other error leaves the outcome unknown: the number may be the application's.
      if (!isTransactionCanceled(error)) throw error;
      if (cancellation(error) === 'conflict') await (store.pause ?? pause)(conflictWait(attempt));
    }
  }
}

interface StatusWrite {
  readonly id: string;
  readonly current: Record<string, unknown>;
  readonly status: ApplicationStatus;
  readonly actor: Actor;
  readonly now: Date;
  readonly note?: string;
  readonly scope: StaffScope;
  readonly member?: ReturnType<typeof memberNumberIssue>;
}

/** The status change's one transaction: the application (only if still as read), its audit entry, its codes. */
function statusTransaction(
  tables: ReviewTables,
  { id, current, status, actor, now, note, scope, member }: StatusWrite,
) {
  const from = current.application_status;
  // A scoped change holds only if the district is still the one checked (an import may
  // correct it meanwhile): otherwise it is read and checked again.
  const sameDistrict = scope.districts ? ' AND revenue_district = :district' : '';
  // The campaign indexes' keys carry the status too (issue 19).
  const campaign = typeof current.campaign_id === 'string' ? current.campaign_id : undefined;
  const campaignSet = campaign ? ', campaign_status = :cs, campaign_district_status = :cds' : '';
  // What a first approval issues with the status, in the same transaction: the referral
  // code (issue 19), the member number and the card (issue 20); each only once.
  const issues = [
    referralIssue(tables, id, current, status, now),
    member,
    cardIssue(tables.applications, id, current, status, now),
  ].filter((part) => part !== undefined);
  const district = current.revenue_district as string | undefined;
  return new TransactWriteCommand({
    TransactItems: [
      {
        Update: {
          TableName: tables.applications,
          Key: { pk: applicationKey(id) },
          UpdateExpression: `SET application_status = :to, updated_at = :now, ${listingIndexes.districtStatus.keyName} = :ds, ${STATUS_CHANGED_AT} = :now${campaignSet}${issues.map((i) => i.set).join('')}`,
          ConditionExpression: `application_status = :from${sameDistrict}${issues.map((i) => i.condition).join('')}`,
          ExpressionAttributeValues: {
            ...(Object.assign({}, ...issues.map((i) => i.values)) as Record<string, string>),
            ...(sameDistrict && { ':district': district }),
            ':to': status,
            ':from': from,
            ':now': now.toISOString(),
            ':ds': districtStatus(district, status),
            ...(campaign && {
              ':cs': campaignKeys(campaign, district, status).campaign_status,
              ':cds': campaignKeys(campaign, district, status).campaign_district_status,
            }),
          },
        },
      },
      {
        Put: {
          TableName: tables.audit,
          Item: {
            pk: applicationKey(id),
            sk: auditKey(now),
            action: 'status',
            at: now.toISOString(),
            by: byOf(actor),
            by_sub: actor.sub,
            from,
            to: status,
            ...(note && { note }),
          },
        },
      },
      ...issues.map((i) => i.put),
    ],
  });
}

/**
 * A drawn number that no approval used is listed on the counter; a failure to list it
 * leaves an unexplained gap, never a wrong status, so it is logged and not thrown.
 */
async function recordUnused(members: MemberSequence, sequence: number, id: string, now: Date): Promise<void> {
  try {
    await members.unused(sequence, id, now);
  } catch (error) {
    logger.warn('A drawn member number was not used nor listed as unused', {
      sequence,
      errorName: (error as Error).name,
    });
  }
}
