import { describe, expect, it } from 'vitest';
import { applicationStatuses } from '../../rules/application';
import type { RollupsReader } from '../adapters/rollups-reader';
import { AppError } from './http';
import { reportSummary } from './rollups-report';

// Which days a report reads when its range is open or too long. The store answers from
// memory here: what matters is the range the report asks it for.
function storeSpanning(firstDay: string, lastDay: string) {
  const asked: { from: string; to: string }[] = [];
  const store = {
    getMeta: () => Promise.resolve({ current: '1', agedThrough: '2026-11-21' }),
    readTotals: () =>
      Promise.resolve({ byStatus: { pending: 0, under_review: 0, approved: 0, rejected: 0 }, firstDay, lastDay }),
    readDays: (_gen: string, _statuses: unknown, from: string, to: string) => {
      asked.push({ from, to });
      return Promise.resolve([]);
    },
    statesBornOn: () => Promise.resolve([]),
    readTop: () => Promise.resolve([]),
  } as unknown as RollupsReader;
  return { store, asked };
}

const filters = (from: string | null, to: string | null) => ({
  from,
  to,
  statuses: applicationStatuses,
  districts: [],
});
const now = new Date('2026-11-21T06:00:00Z');

describe('report range', () => {
  it('covers the latest 400 days when no dates are given and the data spans more', async () => {
    const { store, asked } = storeSpanning('2024-01-01', '2026-11-20');
    await reportSummary(store, filters(null, null), now);
    expect(asked).toEqual([{ from: '2025-10-17', to: '2026-11-20' }]);
  });

  it('covers 400 days from a given start when no end is given', async () => {
    const { store, asked } = storeSpanning('2024-01-01', '2026-11-20');
    await reportSummary(store, filters('2024-03-01', null), now);
    expect(asked).toEqual([{ from: '2024-03-01', to: '2025-04-04' }]);
  });

  it('reads every day with data when the span is short', async () => {
    const { store, asked } = storeSpanning('2026-09-01', '2026-11-20');
    await reportSummary(store, filters(null, null), now);
    expect(asked).toEqual([{ from: '2026-09-01', to: '2026-11-20' }]);
  });

  it('refuses a range staff chose that is too long', async () => {
    const { store } = storeSpanning('2024-01-01', '2026-11-20');
    const error = await reportSummary(store, filters('2024-01-01', '2026-01-01'), now).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).details.fields).toEqual({ from: 'RANGE_TOO_LONG' });
  });
});
