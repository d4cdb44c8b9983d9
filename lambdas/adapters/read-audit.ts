import { createHash } from 'node:crypto';
import { type Db, GetCommand, UpdateCommand } from '../lib/db';
import type { ReportFilters } from '../../rules/report';
import type { ApplicationFilters } from '../../rules/staff-api';
import type { Actor } from './review';

// Every read of many records is on the record, whatever the screen. Rows served for an
// export a person started are counted into that export's audit entry (the browser's
// count is never asked for). Any other rows are metered per person: past the threshold
// in a window, the reading itself becomes an export in the audit trail, one entry per
// screen and filters, which grows with every further page.

/** What a person read: the dashboard's list or the Reports page's rows, with its filters. */
export type ReadScope =
  | { readonly screen: 'dashboard'; readonly filters: ApplicationFilters }
  | { readonly screen: 'reports'; readonly filters: ReportFilters };

export interface BulkReadPolicy {
  /** Rows one person may read in a window before the reading counts as an export. */
  readonly rows: number;
  readonly windowMinutes: number;
}

export interface ReadAudit {
  record(read: { actor: Actor; scope: ReadScope; rows: number; exportId?: string }, now: Date): Promise<'export' | 'metered' | 'bulk-read'>;
}

/** Keys in a stable order, so that the same filters always give the same key. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

/** Names a screen and its filters without holding them (the search term is a name or a number). */
export const scopeKey = (scope: ReadScope): string =>
  createHash('sha256').update(canonical(scope)).digest('base64url').slice(0, 22);

const isConditionFailure = (error: unknown) => (error as Error).name === 'ConditionalCheckFailedException';

export function makeReadAudit(
  db: Db,
  tables: { audit: string; rateLimits: string },
  policy: BulkReadPolicy,
): ReadAudit {
  const windowMs = policy.windowMinutes * 60_000;

  /** Rows counted into the caller's own open export of the same scope; false if there is none. */
  async function countIntoExport(exportId: string, actor: Actor, scope: ReadScope, rows: number, now: Date): Promise<boolean> {
    try {
      await db.send(
        new UpdateCommand({
          TableName: tables.audit,
          Key: { pk: 'EXPORTS', sk: exportId },
          UpdateExpression: 'ADD rows_read :n SET last_read_at = :now',
          ConditionExpression: 'by_sub = :sub AND scope_key = :scope AND attribute_not_exists(completed_at)',
          ExpressionAttributeValues: { ':n': rows, ':now': now.toISOString(), ':sub': actor.sub, ':scope': scopeKey(scope) },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /**
   * The person's rows in the current window plus the whole previous one: a sliding
   * window that errs towards auditing (499 rows either side of a window's edge add up).
   */
  async function meter(actor: Actor, rows: number, now: Date): Promise<{ total: number; windowStart: Date }> {
    const window = Math.floor(now.getTime() / windowMs);
    const key = (w: number) => `READS#${actor.sub}#${w}`;
    const [current, previous] = await Promise.all([
      db.send(
        new UpdateCommand({
          TableName: tables.rateLimits,
          Key: { pk: key(window) },
          UpdateExpression: 'ADD #n :n SET #ttl = :ttl',
          ExpressionAttributeNames: { '#n': 'rows', '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':n': rows, ':ttl': Math.ceil(((window + 2) * windowMs) / 1000) + 3600 },
          ReturnValues: 'UPDATED_NEW',
        }),
      ),
      db.send(new GetCommand({ TableName: tables.rateLimits, Key: { pk: key(window - 1) }, ConsistentRead: true })),
    ]);
    const count = (item: Record<string, unknown> | undefined) => (typeof item?.rows === 'number' ? item.rows : 0);
    return { total: count(current.Attributes) + count(previous.Item), windowStart: new Date(window * windowMs) };
  }

  return {
    async record({ actor, scope, rows, exportId }, now) {
      if (rows === 0) return 'metered';
      if (exportId && (await countIntoExport(exportId, actor, scope, rows, now))) return 'export';
      const { total, windowStart } = await meter(actor, rows, now);
      if (total < policy.rows) return 'metered';
      const start = windowStart.toISOString();
      await db.send(
        new UpdateCommand({
          TableName: tables.audit,
          Key: { pk: 'EXPORTS', sk: `READ#${start}#${actor.sub}#${scopeKey(scope)}` },
          UpdateExpression:
            'SET #action = :export, #kind = :kind, #screen = :screen, #filters = if_not_exists(#filters, :filters), ' +
            '#at = if_not_exists(#at, :now), last_read_at = :now, by_sub = :sub, #by = if_not_exists(#by, :by), ' +
            'window_start = :start, window_rows = :total ADD #rows :n',
          ExpressionAttributeNames: {
            '#action': 'action',
            '#kind': 'kind',
            '#screen': 'screen',
            '#filters': 'filters',
            '#at': 'at',
            '#by': 'by',
            '#rows': 'rows',
          },
          ExpressionAttributeValues: {
            ':export': 'export',
            ':kind': 'bulk-read',
            ':screen': scope.screen,
            ':filters': scope.filters,
            ':now': now.toISOString(),
            ':sub': actor.sub,
            // The email as it was (an access token has none: then the subject).
            ':by': actor.email || actor.sub,
            ':start': start,
            ':total': total,
            ':n': rows,
          },
        }),
      );
      return 'bulk-read';
    },
  };
}
