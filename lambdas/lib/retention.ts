import { listingIndexes } from '../adapters/application-items';
import { type Actor, type ReviewStore, STATUS_CHANGED_AT } from '../adapters/review';
import { type Db, QueryCommand } from './db';

// The retention job's work (issue 21; docs/PRODUCT.md "Retention"): a rejected application
// is erased once it has been rejected for longer than the stage's period, as a staff
// erasure does (the application, its number's guard, its trail; the audit keeps that it was
// erased, when, and by this job). An application whose status changed meanwhile is kept:
// the erasure holds only while the status and its time are those read.
//
// The rejected applications are read through the by-status index, submitted before the
// cutoff (one rejected before the cutoff was submitted before it): a run reads those
// rejected ones, not the table. A run that meets its time budget stops; the next run goes on.

/** Who the audit names for the job's erasures. */
export const retentionActor: Actor = { sub: 'system:retention', email: '' };

export interface RetentionDeps {
  readonly db: Db;
  readonly applicationsTable: string;
  readonly review: Pick<ReviewStore, 'erase'>;
  readonly rejectedDays: number;
  /** Time left in the invocation, in ms; the run stops with this below a minute. */
  readonly remainingMs: () => number;
}

export interface RetentionResult {
  /** Rejected applications read (submitted before the cutoff). */
  readonly examined: number;
  readonly erased: number;
  /** Past the period when read, changed before the erasure: kept. */
  readonly changedMeanwhile: number;
  /** Stopped before the end for want of time. */
  readonly incomplete: boolean;
}

const DAY_MS = 86_400_000;
const STOP_BEFORE_MS = 60_000;

export async function eraseExpired(deps: RetentionDeps, now: Date): Promise<RetentionResult> {
  const cutoff = new Date(now.getTime() - deps.rejectedDays * DAY_MS).toISOString();
  let examined = 0;
  let erased = 0;
  let changedMeanwhile = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    if (deps.remainingMs() < STOP_BEFORE_MS) return { examined, erased, changedMeanwhile, incomplete: true };
    const page = await deps.db.send(
      new QueryCommand({
        TableName: deps.applicationsTable,
        IndexName: listingIndexes.status.indexName,
        KeyConditionExpression: `${listingIndexes.status.keyName} = :rejected AND submitted_sort < :cutoff`,
        ExpressionAttributeValues: { ':rejected': 'rejected', ':cutoff': cutoff },
        ProjectionExpression: `id, ${STATUS_CHANGED_AT}, updated_at`,
        ExclusiveStartKey: startKey,
        Limit: 100,
      }),
    );
    for (const item of page.Items ?? []) {
      examined++;
      const changedAt = String(item[STATUS_CHANGED_AT] ?? item.updated_at ?? '');
      if (!changedAt || changedAt >= cutoff) continue;
      const outcome = await deps.review.erase(String(item.id), retentionActor, now, { status: 'rejected', changedAt });
      if (outcome === 'erased') erased++;
      else changedMeanwhile++;
      if (deps.remainingMs() < STOP_BEFORE_MS) return { examined, erased, changedMeanwhile, incomplete: true };
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return { examined, erased, changedMeanwhile, incomplete: false };
}
