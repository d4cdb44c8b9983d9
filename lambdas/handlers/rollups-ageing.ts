import * as v from 'valibot';
import { coercedNumber } from '../../rules/schema';
import { rollupsFenceSeconds } from '../../contracts/rollups-fence';
import { systemClock } from '../lib/clock';
import { makeDocumentClient } from '../lib/dynamo';
import { tracedDb } from '../lib/tracing';
import { baseEnvSchema, parseEnv, tableName } from '../lib/env';
import { logger } from '../lib/logger';
import { ageingStore, type AgeingStore, ageRollups } from '../lib/rollups-ageing';
import { wiredOnFirstCall } from '../lib/wiring';

// Daily at 00:00 IST (EventBridge schedule; a timer in the local stack): moves the
// applications whose birthday crossed an age bucket boundary since the last run.

export const ageingEnvSchema = v.object({
  ...baseEnvSchema.entries,
  /** Wait after announcing the run: longer than a consumer invocation (lib/functions.ts). */
  ROLLUPS_FENCE_SECONDS: v.optional(v.pipe(coercedNumber(), v.minValue(0), v.maxValue(240)), rollupsFenceSeconds),
});

export interface AgeingDeps {
  readonly rollups: AgeingStore;
  readonly clock: () => Date;
  readonly fenceMs: number;
}

export function makeHandler({ rollups, clock, fenceMs }: AgeingDeps) {
  return async () => {
    const result = await ageRollups(rollups, clock(), { fenceMs });
    logger.info('Rollups aged', { ...result });
    return result;
  };
}

export const handler = wiredOnFirstCall(() => {
  const env = parseEnv(ageingEnvSchema);
  return makeHandler({
    rollups: ageingStore(tracedDb(makeDocumentClient(env)), tableName('rollups')),
    clock: systemClock(),
    fenceMs: env.ROLLUPS_FENCE_SECONDS * 1000,
  });
});
