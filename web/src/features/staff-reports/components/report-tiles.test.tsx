// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReportSummary } from '../../../../../rules/report';
import { renderWithI18n } from '../../../testing/render';
import { ReportTiles } from './report-sources';

// The Reports page's "Members" tile (issue 20): approved applications with a member
// number, as the server counted them within the filters; none from an older server.

const zero = { pending: 0, under_review: 0, approved: 0, rejected: 0 };
const summary = (over: Partial<ReportSummary> = {}): ReportSummary => ({
  asOf: '2026-11-21',
  filters: { from: null, to: null, statuses: ['pending', 'under_review', 'approved', 'rejected'], districts: [] },
  range: null,
  total: 1500,
  byStatus: { ...zero, approved: 1300, pending: 200 },
  byDistrict: [],
  byGender: { Male: 0, Female: 0, Unknown: 0 },
  byMember: { Yes: 0, No: 0 },
  byAge: { '<18': 0, '18-24': 0, '25-34': 0, '35-44': 0, '45-54': 0, '55+': 0, Unknown: 0 },
  series: [],
  topDistricts: [],
  ...over,
});

afterEach(cleanup);

describe('the report tiles', () => {
  it.each([
    ['en', 'Members'],
    ['ta', 'உறுப்பினர்கள்'],
  ] as const)('show the members, approved with a number, beside the approved (%s)', (language, label) => {
    renderWithI18n(<ReportTiles data={summary({ members: 1234 })} />, language);
    const tile = screen.getByTestId('tile-members');
    expect(tile.querySelector('.stat-label')?.textContent).toBe(label);
    expect(tile.querySelector('.stat-value')?.textContent).toBe((1234).toLocaleString('en-IN'));
    expect(screen.getByTestId('tile-approved').querySelector('.stat-value')?.textContent).toBe('1,300');
  });

  it('show no Members tile when the server sent no count (an older server)', () => {
    renderWithI18n(<ReportTiles data={summary()} />);
    expect(screen.queryByTestId('tile-members')).toBeNull();
  });
});
