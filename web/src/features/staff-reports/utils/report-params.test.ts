import { describe, expect, it } from 'vitest';
import {
  defaultReportParams,
  isDefaultReport,
  parseReportParams,
  reportParamsToSearch,
  reportProblem,
  statusFilterLabel,
  toggleDistrict,
  toggleStatus,
} from './report-params';

const parse = (query: string) => parseReportParams(new URLSearchParams(query));

describe('report filters in the URL', () => {
  it('opens with every status, no dates and no district', () => {
    expect(parse('')).toEqual(defaultReportParams);
    expect(isDefaultReport(parse(''))).toBe(true);
    expect(reportParamsToSearch(defaultReportParams).toString()).toBe('');
  });

  it('reads dates, statuses and districts, in a stable order', () => {
    const params = parse('from=2026-01-01&to=2026-01-31&status=rejected,pending&district=Salem,Chennai');
    expect(params).toEqual({
      from: '2026-01-01',
      to: '2026-01-31',
      statuses: ['pending', 'rejected'],
      districts: ['Chennai', 'Salem'],
    });
    expect(reportParamsToSearch(params).toString()).toBe(
      'from=2026-01-01&to=2026-01-31&status=pending%2Crejected&district=Chennai%2CSalem',
    );
  });

  it('round-trips through the URL', () => {
    const params = { from: '2025-03-01', to: null, statuses: ['approved'], districts: ['Madurai'] } as const;
    expect(parse(reportParamsToSearch(params).toString())).toEqual(params);
  });

  it('keeps a campaign (issue 19) in the URL, and leaves it out by default', () => {
    const params = parse('campaign=camp-1&status=approved');
    expect(params.campaign).toBe('camp-1');
    expect(isDefaultReport(params)).toBe(false);
    expect(reportParamsToSearch(params).toString()).toBe('status=approved&campaign=camp-1');
    expect(parse('campaign=not%20an%20id').campaign).toBeUndefined();
    expect(isDefaultReport(parse('campaign=camp-1'))).toBe(false);
  });

  it('drops what the report API would refuse', () => {
    expect(parse('from=2026-02-30&to=yesterday&status=bogus&district=Atlantis')).toEqual(defaultReportParams);
    expect(parse('status=approved,bogus').statuses).toEqual(['approved']);
  });

  it('leaves every status out of the URL (the default)', () => {
    const all = parse('status=pending,under_review,approved,rejected');
    expect(reportParamsToSearch(all).toString()).toBe('');
  });

  it('toggles statuses, never leaving none', () => {
    const one = toggleStatus(
      toggleStatus(toggleStatus(defaultReportParams, 'pending', false), 'approved', false),
      'rejected',
      false,
    );
    expect(one.statuses).toEqual(['under_review']);
    expect(toggleStatus(one, 'under_review', false)).toBe(one);
    expect(toggleStatus(one, 'pending', true).statuses).toEqual(['pending', 'under_review']);
  });

  it('toggles districts, kept sorted', () => {
    const a = toggleDistrict(defaultReportParams, 'Salem', true);
    const b = toggleDistrict(a, 'Chennai', true);
    expect(b.districts).toEqual(['Chennai', 'Salem']);
    expect(toggleDistrict(b, 'Salem', false).districts).toEqual(['Chennai']);
  });

  it('shows statuses upper-cased with a space', () => {
    expect(statusFilterLabel('under_review')).toBe('UNDER REVIEW');
    expect(statusFilterLabel('pending')).toBe('PENDING');
  });

  it('finds before asking what the report API would refuse', () => {
    const p = (from: string | null, to: string | null) => ({ ...defaultReportParams, from, to });
    expect(reportProblem(p('2026-01-10', '2026-01-01'))).toBe('RANGE_INVALID');
    expect(reportProblem(p('2024-01-01', '2026-01-01'))).toBe('RANGE_TOO_LONG');
    expect(reportProblem(p('2026-01-01', '2026-01-01'))).toBeNull();
    expect(reportProblem(p('2026-01-01', null))).toBeNull();
    expect(reportProblem(defaultReportParams)).toBeNull();
  });
});
