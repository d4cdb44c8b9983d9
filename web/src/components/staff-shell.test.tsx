// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { type StaffRole, type StaffSession, StaffSessionContext } from '../lib/staff-session';
import { renderWithI18n } from '../testing/render';
import { StaffShell } from './staff-shell';

// The Staff page's link is an admin's only (the server refuses anyone else its routes).

const session = (role: StaffRole): StaffSession => ({
  email: `${role}@example.org`,
  role,
  districts: role === 'coordinator' ? ['chennai'] : [],
  getIdToken: () => Promise.resolve('id-token'),
  signOut: () => Promise.resolve(),
});

function renderShell(role: StaffRole, language: 'en' | 'ta' = 'en') {
  renderWithI18n(
    <MemoryRouter initialEntries={['/admin/staff']}>
      <StaffSessionContext.Provider value={session(role)}>
        <StaffShell>
          <p>page</p>
        </StaffShell>
      </StaffSessionContext.Provider>
    </MemoryRouter>,
    language,
  );
}

afterEach(cleanup);

describe('the staff nav', () => {
  it('shows an admin the Staff page, marked current on it, in either language', () => {
    renderShell('admin');
    expect(screen.getByRole('link', { name: 'Staff' }).getAttribute('aria-current')).toBe('page');
    cleanup();
    renderShell('admin', 'ta');
    expect(screen.getByRole('link', { name: 'பணியாளர்கள்' }).getAttribute('href')).toBe('/admin/staff');
  });

  it.each(['coordinator', 'viewer'] as const)('hides it from a %s', (role) => {
    renderShell(role);
    expect(screen.getByRole('link', { name: 'Reports' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Staff' })).toBeNull();
  });
});
