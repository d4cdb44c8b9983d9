import type { Context } from 'aws-lambda';
import * as v from 'valibot';
import { coercedNumber } from '../../rules/schema';
import { makeGrievanceRetentionStore } from '../adapters/grievances';
import { makeReviewStore } from '../adapters/review';
import { systemClock } from '../lib/clock';
import { dbRuntime } from '../lib/db-runtime';
import { baseEnvSchema, parseEnv } from '../lib/env';
import { applyGrievanceRetention, type GrievanceRetentionDeps } from '../lib/grievance-retention';
import { logger } from '../lib/logger';
import { count, flushMetrics } from '../lib/metrics';
import { eraseExpired, type RetentionDeps } from '../lib/retention';
import { wiredOnFirstCall } from '../lib/wiring';

// Daily at 00:00 IST (EventBridge; a timer in the local stack): erases what is kept past
// the stage's retention period (lambdas/lib/retention.ts): rejected applications and
// closed grievances (lambdas/lib/grievance-retention.ts), and counts the open grievances
// due within 7 days for their alarm (GrievancesDueSoon).

const retentionEnvSchema = v.object({
  ...baseEnvSchema.entries,
  RETENTION_REJECTED_DAYS: v.pipe(coercedNumber(), v.integer(), v.minValue(1)),
  RETENTION_CLOSED_GRIEVANCE_DAYS: v.pipe(coercedNumber(), v.integer(), v.minValue(1)),
});

type Deps = Omit<RetentionDeps, 'remainingMs'> & {
  readonly clock: () => Date;
  /** The closed grievances' part; without it only applications are looked at. */
  readonly grievances?: Omit<GrievanceRetentionDeps, 'remainingMs'>;
};

export function makeHandler(deps: Deps) {
  return async (_event?: unknown, context?: Pick<Context, 'getRemainingTimeInMillis'>) => {
    const remainingMs = () => context?.getRemainingTimeInMillis() ?? Number.POSITIVE_INFINITY;
    const now = deps.clock();
    // Each part runs whatever the other does: a failure of one still fails the job (its alarm).
    const [applications, grievances] = await Promise.allSettled([
      eraseExpired({ ...deps, remainingMs }, now),
      deps.grievances ? applyGrievanceRetention({ ...deps.grievances, remainingMs }, now) : undefined,
    ]);
    if (grievances.status === 'fulfilled' && grievances.value) {
      count('GrievancesDueSoon', grievances.value.dueSoon);
      logger.info('Grievance retention applied', { ...grievances.value, closedDays: deps.grievances?.closedDays });
    }
    flushMetrics();
    if (applications.status === 'rejected') throw applications.reason;
    if (grievances.status === 'rejected') throw grievances.reason;
    logger.info('Retention applied', { ...applications.value, rejectedDays: deps.rejectedDays });
    return { ...applications.value, ...(grievances.value && { grievances: grievances.value }) };
  };
}

export const handler = wiredOnFirstCall(() => {
  const env = parseEnv(retentionEnvSchema);
  const { db, tables } = dbRuntime('applications', 'audit', 'grievances');
  return makeHandler({
    db,
    applicationsTable: tables.applications,
    review: makeReviewStore(db, tables),
    rejectedDays: env.RETENTION_REJECTED_DAYS,
    grievances: {
      store: makeGrievanceRetentionStore(db, tables.grievances),
      db,
      auditTable: tables.audit,
      closedDays: env.RETENTION_CLOSED_GRIEVANCE_DAYS,
    },
    clock: systemClock(),
  });
});
