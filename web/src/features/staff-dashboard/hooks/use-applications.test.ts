import { describe, expect, it } from 'vitest';
import type { ApplicationRow, ListResponse } from '../../../../../rules/staff-api';
import type { ListParams } from '../utils/list-params';
import { behindTheTable } from './use-applications';

// A search's page is read from the search index, which follows the table a moment later
// (issue 18): the dashboard reads it again while the page shows it is behind.

const row = (id: string, status: ApplicationRow['application_status'] = 'pending'): ApplicationRow => ({
  id,
  name: `Person ${id}`,
  phone_number: '919876543210',
  email: undefined,
  revenue_district: 'Madurai',
  application_status: status,
  submitted_at: '2026-11-20T04:30:00.000Z',
});
const params = (filters: ListParams['filters'], page = 1): ListParams => ({ filters, pageSize: 10, page });
const answer = (items: ApplicationRow[], total: number, nextCursor?: string): ListResponse => ({
  items,
  total,
  ...(nextCursor && { nextCursor }),
});

describe('behindTheTable', () => {
  it('is never behind without a search: the list reads the table', () => {
    expect(behindTheTable(answer([row('a', 'approved')], 5), params({ status: 'pending' }))).toBe(false);
  });

  it('is behind when a row is outside the filters (its status changed since it was indexed)', () => {
    const q = { q: 'kav', status: 'pending' as const };
    expect(behindTheTable(answer([row('a'), row('b', 'under_review')], 2), params(q))).toBe(true);
    expect(behindTheTable(answer([row('a')], 1), params(q))).toBe(false);
    expect(behindTheTable(answer([row('a')], 1), params({ q: 'kav', district: 'Salem' }))).toBe(true);
  });

  it('is behind when the page holds fewer rows than the total says (one was erased)', () => {
    expect(behindTheTable(answer([row('a')], 2), params({ q: 'kav' }))).toBe(true);
    expect(behindTheTable(answer([row('a'), row('b')], 2), params({ q: 'kav' }))).toBe(false);
    // The last of three pages of 10: 20 before it.
    expect(behindTheTable(answer([row('a')], 21), params({ q: 'kav' }, 3))).toBe(false);
    expect(behindTheTable(answer([row('a')], 22), params({ q: 'kav' }, 3))).toBe(true);
    // A page with a next one is full.
    expect(behindTheTable(answer([row('a')], 30, 'next'), params({ q: 'kav' }))).toBe(true);
    expect(
      behindTheTable(
        answer(
          Array.from({ length: 10 }, (_, i) => row(`r${i}`)),
          30,
          'next',
        ),
        params({ q: 'kav' }),
      ),
    ).toBe(false);
  });
});
