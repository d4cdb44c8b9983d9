import type { Context } from 'aws-lambda';
import * as v from 'valibot';
import { coercedNumber } from '../../rules/schema';
import { makeReviewStore } from '../adapters/review';
import { systemClock } from '../lib/clock';
import { dbRuntime } from '../lib/db-runtime';
import { baseEnvSchema, parseEnv } from '../lib/env';
import { logger } from '../lib/logger';
import { eraseExpired, type RetentionDeps } from '../lib/retention';
import { wiredOnFirstCall } from '../lib/wiring';

// Daily at 00:00 IST (EventBridge; a timer in the local stack): erases what is kept past
// the stage's retention period (lambdas/lib/retention.ts).

const retentionEnvSchema = v.object({
  ...baseEnvSchema.entries,
  RETENTION_REJECTED_DAYS: v.pipe(coercedNumber(), v.integer(), v.minValue(1)),
});

export function makeHandler(deps: Omit<RetentionDeps, 'remainingMs'> & { readonly clock: () => Date }) {
  return async (_event?: unknown, context?: Pick<Context, 'getRemainingTimeInMillis'>) => {
    const remainingMs = () => context?.getRemainingTimeInMillis() ?? Number.POSITIVE_INFINITY;
    const result = await eraseExpired({ ...deps, remainingMs }, deps.clock());
    logger.info('Retention applied', { ...result, rejectedDays: deps.rejectedDays });
    return result;
  };
}

export const handler = wiredOnFirstCall(() => {
  const env = parseEnv(retentionEnvSchema);
  const { db, tables } = dbRuntime('applications', 'audit');
  return makeHandler({
    db,
    applicationsTable: tables.applications,
    review: makeReviewStore(db, tables),
    rejectedDays: env.RETENTION_REJECTED_DAYS,
    clock: systemClock(),
  });
});
