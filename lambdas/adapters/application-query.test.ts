import { describe, expect, it } from 'vitest';
import { tables } from '../../contracts/table-definitions';
import { decodeCursor, encodeCursor, planStreams, sortKeyBounds } from './application-query';

describe('the listing planner', () => {
  it('reads the dashboard filters through one key of a declared index, unfiltered', () => {
    const declared = new Map<string, string>(
      tables.applications.indexes.map((i) => [i.indexName, i.partitionKey.name]),
    );
    const plans = [
      planStreams({ districts: [] }),
      planStreams({ statuses: ['approved'], districts: [] }),
      planStreams({ districts: ['Salem'] }),
      planStreams({ statuses: ['pending'], districts: ['Salem'] }),
    ];
    expect(plans.map((p) => p.map((s) => [s.index, s.keyValue, s.statuses]))).toEqual([
      [['by-submitted', 'APP', undefined]],
      [['by-status', 'approved', undefined]],
      [['by-district', 'Salem', undefined]],
      [['by-district-status', 'Salem#pending', undefined]],
    ]);
    for (const s of plans.flat()) expect(declared.get(s.index)).toBe(s.keyName);
  });

  it('keeps only the selected statuses where the index does not narrow them', () => {
    const all = ['pending', 'under_review', 'approved', 'rejected'] as const;
    expect(planStreams({ statuses: all, districts: ['Salem'] })).toEqual([
      { index: 'by-district', keyName: 'revenue_district', keyValue: 'Salem', statuses: all },
    ]);
  });

  it('bounds the sort key by whole IST days, or not at all', () => {
    expect(sortKeyBounds({})).toEqual({ low: '0', high: '\uffff' });
    expect(sortKeyBounds({ from: '2026-03-01' }).low).toBe('2026-02-28T18:30:00.000Z');
  });

  it('has one cursor format, with the report total optional', () => {
    const cursor = { v: 1 as const, after: '2026-03-01T10:00:00.000Z#a1' };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    // The dashboard's former start keys are not cursors.
    const startKey = { pk: 'APP#a1', submitted_sort: '2026-03-01T10:00:00.000Z#a1', list_pk: 'APP' };
    expect(decodeCursor(Buffer.from(JSON.stringify(startKey)).toString('base64url'))).toBeUndefined();
  });
});
