import { GRIEVANCE_DUE_SOON_DAYS } from '../../rules/grievances';
import { recordGrievanceAudit } from '../adapters/grievance-audit';
import type { GrievanceRetentionStore } from '../adapters/grievances';
import type { Db } from './db';
import { retentionActor } from './retention';

// The daily retention job's part for grievances (issue 21; docs/PRODUCT.md "Retention"):
// a closed ticket is erased once it has been closed for longer than the stage's period
// (the delete holds only while the ticket is closed at the time read), and the audit says
// how many the run erased, nothing more. The
// job also counts the open tickets due within 7 days or overdue: the `grievances-due`
// alarm fires on that count (GrievancesDueSoon).

export interface GrievanceRetentionDeps {
  readonly store: GrievanceRetentionStore;
  readonly db: Db;
  readonly auditTable: string;
  readonly closedDays: number;
  /** Time left in the invocation, in ms; the erasures stop with this below a minute. */
  readonly remainingMs: () => number;
}

export interface GrievanceRetentionResult {
  /** Closed tickets read that were closed before the cutoff. */
  readonly closedExamined: number;
  readonly closedErased: number;
  /** Open tickets due within GRIEVANCE_DUE_SOON_DAYS days, or overdue. */
  readonly dueSoon: number;
  /** Stopped before the end for want of time. */
  readonly incomplete: boolean;
}

const DAY_MS = 86_400_000;
const STOP_BEFORE_MS = 60_000;

async function eraseClosed(deps: GrievanceRetentionDeps, now: Date) {
  const cutoff = new Date(now.getTime() - deps.closedDays * DAY_MS).toISOString();
  let examined = 0;
  let erased = 0;
  let start: Record<string, unknown> | undefined;
  let incomplete = false;
  do {
    if (deps.remainingMs() < STOP_BEFORE_MS) {
      incomplete = true;
      break;
    }
    const page = await deps.store.closedBefore(cutoff, start);
    for (const item of page.items) {
      examined++;
      if (await deps.store.erase(item.id, item.closedAt)) erased++;
    }
    start = page.next;
  } while (start);
  return { examined, erased, incomplete };
}

export async function applyGrievanceRetention(
  deps: GrievanceRetentionDeps,
  now: Date,
): Promise<GrievanceRetentionResult> {
  const closed = await eraseClosed(deps, now);
  // The count of the run's erasures: the tickets' ids, texts and numbers are gone with them.
  if (closed.erased > 0) {
    await recordGrievanceAudit(
      deps.db,
      deps.auditTable,
      { action: 'grievance-retention', erased: closed.erased },
      retentionActor,
      now,
    );
  }
  const dueSoon = await deps.store.countOpenDueBefore(
    new Date(now.getTime() + GRIEVANCE_DUE_SOON_DAYS * DAY_MS).toISOString(),
  );
  return { closedExamined: closed.examined, closedErased: closed.erased, dueSoon, incomplete: closed.incomplete };
}
