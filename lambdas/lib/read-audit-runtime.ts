import * as v from 'valibot';
import { type Db } from './db';
import { type BulkReadPolicy, makeReadAudit, type ReadAudit } from '../adapters/read-audit';
import { envInt, parseEnv, tableName } from './env';

// When reading many records becomes an export in the audit trail (docs/RUNBOOK.md,
// "Audit trail"): past 500 rows read by one person within about 60 minutes (five pages
// of the dashboard's largest size; a whole day's applications at a rally). The variables
// tune it without a code change; no stage sets them.
const bulkReadEnvSchema = v.object({
  BULK_READ_ROWS: envInt(500),
  BULK_READ_WINDOW_MINUTES: envInt(60, { max: 24 * 60 }),
});

function bulkReadPolicy(env: NodeJS.ProcessEnv = process.env): BulkReadPolicy {
  const parsed = parseEnv(bulkReadEnvSchema, env);
  return { rows: parsed.BULK_READ_ROWS, windowMinutes: parsed.BULK_READ_WINDOW_MINUTES };
}

/** The read audit of a handler that serves many rows: the audit and rate-limit tables it is granted. */
export function readAuditFromEnv(db: Db): ReadAudit {
  return makeReadAudit(db, { audit: tableName('audit'), rateLimits: tableName('rateLimits') }, bulkReadPolicy());
}
