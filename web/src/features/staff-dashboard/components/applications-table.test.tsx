// @vitest-environment happy-dom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApplicationRow } from '../../../../../rules/staff-api';
import { renderWithI18n } from '../../../testing/render';
import { ApplicationsTable } from './applications-table';

// The list shows a member's number under their name (issue 20), and nothing for an
// application that has none yet.

const rows: ApplicationRow[] = [
  {
    id: 'a1',
    name: 'Kavya Raman',
    phone_number: '919876543210',
    application_status: 'approved',
    submitted_at: '2026-11-21T04:30:00.000Z',
    member_number: 'TNSW-2026-000123',
  },
  {
    id: 'a2',
    name: 'Arun Kumar',
    phone_number: '919876543211',
    application_status: 'pending',
    submitted_at: '2026-11-21T05:30:00.000Z',
  },
];

afterEach(cleanup);

describe('the applications table', () => {
  it.each([
    ['en', 'Member number: TNSW-2026-000123'],
    ['ta', 'உறுப்பினர் எண்: TNSW-2026-000123'],
  ] as const)('shows the member number under the name, labelled for screen readers (%s)', (language, text) => {
    renderWithI18n(
      <ApplicationsTable
        rows={rows}
        canReview={false}
        selected={new Set()}
        onSelect={() => {}}
        expanded={new Set()}
        onToggle={() => {}}
        onErase={() => {}}
        busy={false}
      />,
      language,
    );
    const [numbered, pending] = screen.getAllByTestId('application-row');
    expect(within(numbered!).getByText('TNSW-2026-000123').textContent).toBe(text);
    expect(pending!.textContent).not.toContain('TNSW');
  });
});
