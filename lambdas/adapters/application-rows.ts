import { type Db } from '../lib/db';
import type { ReportFilters, ReportRow } from '../../rules/report';
import { planStreams, readPage, sortKeyBounds } from './application-query';

// The raw rows of a report, newest first, through the planner of application-query.ts:
// the report's statuses and districts may name several index keys, merged by sort key.
// The cursor (application-query.ts) is the last row's sort key and the report's total.

const str = (v: unknown) => (typeof v === 'string' ? v : '');

function toRow(item: Record<string, unknown>): ReportRow {
  return {
    id: str(item.id),
    name: str(item.name),
    phone_number: str(item.phone_number),
    revenue_district: typeof item.revenue_district === 'string' ? item.revenue_district : null,
    application_status: str(item.application_status),
    submitted_at: str(item.submitted_at),
  };
}

const projection = ['id', 'name', 'phone_number', 'revenue_district', 'application_status', 'submitted_at'];

interface RowsPage {
  readonly items: ReportRow[];
  /** Sort key of the last row, when more rows follow. */
  readonly last?: string;
}

export interface ApplicationRows {
  page(filters: ReportFilters, limit: number, after?: string): Promise<RowsPage>;
}

export function makeApplicationRows(db: Db, tableName: string): ApplicationRows {
  return {
    async page(filters, limit, after) {
      const plan = { streams: planStreams(filters), bounds: sortKeyBounds(filters) };
      const read = await readPage(
        db,
        tableName,
        plan,
        { limit, ...(after !== undefined && { after }) },
        { projection },
      );
      return { items: read.items.map(toRow), ...(read.last !== undefined && { last: read.last }) };
    },
  };
}
