import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applicationExportColumns } from '../../../../../rules/csv';
import type { ApplicationRow } from '../../../../../rules/staff-api';
import { jsonResponse } from '../../../testing/render';
import { exportApplications, type ExportProgress } from './export-applications';

// The export reads every page of the filtered listing, one short request each: 100,000
// rows are 100 requests of 1,000, whatever the total time, and the file is one string
// per row handed to the Blob (never one growing string).

function row(i: number): ApplicationRow {
  return {
    id: `id-${i}`,
    name: i === 7 ? '=cmd|" /C calc"!A0' : `Person ${i}`,
    phone_number: `91${String(9_000_000_000 + i)}`,
    email: `p${i}@example.org`,
    revenue_district: 'Madurai',
    application_status: 'pending',
    submitted_at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    is_already_member: i % 2 === 0,
  };
}

function fakeApi(total: number) {
  const calls: { url: string; body?: unknown }[] = [];
  const fetchImpl = vi.fn<typeof fetch>((input, init) => {
    const url = new URL(input as string, 'http://localhost');
    calls.push({
      url: url.pathname + url.search,
      ...(init?.body !== undefined && { body: JSON.parse(init.body as string) as unknown }),
    });
    if (url.pathname === '/api/admin/exports') return Promise.resolve(jsonResponse(201, { exportId: 'ex-1', total }));
    if (url.pathname === '/api/admin/exports/ex-1/complete') {
      return Promise.resolve(jsonResponse(200, { exportId: 'ex-1', rows: total }));
    }
    const page = calls.at(-1)?.body as { pageSize: number; cursor?: string };
    const start = Number(page.cursor ?? 0);
    const size = page.pageSize;
    const items = Array.from({ length: Math.min(size, total - start) }, (_, k) => row(start + k));
    const next = start + items.length < total ? String(start + items.length) : undefined;
    return Promise.resolve(jsonResponse(200, { items, total, ...(next && { nextCursor: next }) }));
  });
  vi.stubGlobal('fetch', fetchImpl);
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

describe('CSV export', () => {
  it('records the export, reads every page with the same filters in its name, and completes the audit', async () => {
    const calls = fakeApi(2500);
    const progress: ExportProgress[] = [];
    const result = await exportApplications(
      () => Promise.resolve('token'),
      { status: 'pending', district: 'Madurai' },
      (p) => progress.push(p),
    );

    const filters = { status: 'pending', district: 'Madurai' };
    expect(calls).toEqual([
      { url: '/api/admin/exports', body: { filters } },
      { url: '/api/admin/applications/search', body: { filters, pageSize: 1000, exportId: 'ex-1' } },
      { url: '/api/admin/applications/search', body: { filters, pageSize: 1000, cursor: '1000', exportId: 'ex-1' } },
      { url: '/api/admin/applications/search', body: { filters, pageSize: 1000, cursor: '2000', exportId: 'ex-1' } },
      // The server counted the rows it served for the export: the browser's count is not asked for.
      { url: '/api/admin/exports/ex-1/complete', body: {} },
    ]);
    expect(progress).toEqual([
      { done: 0, total: 2500 },
      { done: 1000, total: 2500 },
      { done: 2000, total: 2500 },
      { done: 2500, total: 2500 },
    ]);
    expect(result.rows).toBe(2500);

    const records: Record<string, string>[] = parse(result.parts.join(''), { bom: true, columns: true });
    expect(Object.keys(records[0]!)).toEqual([...applicationExportColumns]);
    expect(records.map((r) => r.id)).toEqual(Array.from({ length: 2500 }, (_, i) => `id-${i}`));
    expect(records[7]!.name).toBe(`'=cmd|" /C calc"!A0`);
    expect(records[0]!.is_already_member).toBe('true');
  });

  it('exports 100,000 rows in 100 requests, one string per row', async () => {
    const calls = fakeApi(100_000);
    const started = performance.now();
    const result = await exportApplications(
      () => Promise.resolve('token'),
      {},
      () => undefined,
    );
    expect(result.rows).toBe(100_000);
    expect(result.parts).toHaveLength(100_001);
    expect(calls.filter((c) => c.url.startsWith('/api/admin/applications'))).toHaveLength(100);
    // Not a benchmark: a generous bound that catches quadratic work.
    expect(performance.now() - started).toBeLessThan(20_000);
    // The test's own time limit above that bound: on a loaded 2-core machine it took 6.4 s.
  }, 30_000);

  it('writes only the header when nothing matches', async () => {
    fakeApi(0);
    const result = await exportApplications(
      () => Promise.resolve('token'),
      { q: 'nobody' },
      () => undefined,
    );
    expect(result.rows).toBe(0);
    expect(result.parts.join('')).toBe(`\uFEFF${applicationExportColumns.map((c) => `"${c}"`).join(',')}\r\n`);
  });
});
