// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { staffEn } from '../../../i18n/staff-en';
import { staffTa } from '../../../i18n/staff-ta';
import { type StaffSession, StaffSessionContext } from '../../../lib/staff-session';
import { renderWithI18n } from '../../../testing/render';
import type { ListFilters } from '../utils/list-params';
import { FiltersForm } from './filters-form';

// The search box says what a search finds (the start of a name's words, a number's last
// digits, a whole email: rules/search.ts), and Apply refuses a query the server would
// refuse as TOO_SHORT, in the screen's language, without asking the server.

afterEach(cleanup);

const session: StaffSession = {
  email: 'admin@example.com',
  role: 'admin',
  districts: [],
  getIdToken: () => Promise.resolve('id-token'),
  signOut: () => Promise.resolve(),
};

const texts = { en: staffEn, ta: staffTa } as const;

function renderForm(language: 'en' | 'ta') {
  const onApply = vi.fn<(filters: ListFilters) => void>();
  renderWithI18n(
    <StaffSessionContext.Provider value={session}>
      <FiltersForm filters={{}} onApply={onApply} />
    </StaffSessionContext.Provider>,
    language,
  );
  const s = texts[language].filters;
  const search = screen.getByLabelText<HTMLInputElement>(s.search);
  const apply = () => userEvent.click(screen.getByRole('button', { name: s.apply }));
  return { onApply, s, search, apply };
}

/** The elements an input's aria-describedby names, as their texts. */
const describedBy = (input: HTMLElement) =>
  (input.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent);

describe.each(['en', 'ta'] as const)('the search box (%s)', (language) => {
  it('shows what a search finds under the box, and the box is described by it', () => {
    const { s, search } = renderForm(language);
    const hint = screen.getByText(s.searchHint);
    expect(hint.tagName).toBe('P');
    expect(hint.className).not.toContain('visually-hidden');
    expect(hint.className).toContain('field-hint');
    expect(describedBy(search)).toEqual([s.searchHint]);
    expect(search.placeholder).toBe(s.searchPlaceholder);
    expect(search.getAttribute('aria-invalid')).toBe('false');
  });

  it('refuses three digits (and a query of no letters or digits) with TOO_SHORT, sending nothing', async () => {
    const { onApply, s, search, apply } = renderForm(language);
    for (const q of ['123', '+91 1-2', '!!']) {
      await userEvent.clear(search);
      await userEvent.type(search, q);
      await apply();
      expect(screen.getByRole('alert').textContent, q).toBe(s.searchTooShort);
      expect(search.getAttribute('aria-invalid')).toBe('true');
      expect(describedBy(search)).toEqual([s.searchHint, s.searchTooShort]);
    }
    expect(onApply).not.toHaveBeenCalled();
  });

  it('sends a number by its last 4 digits, a name prefix and a whole email, and clears the error', async () => {
    const { onApply, search, apply } = renderForm(language);
    await userEvent.type(search, '321');
    await apply();
    expect(screen.queryByRole('alert')).not.toBeNull();
    for (const q of ['4321', '+91 98765 43210', 'கவி', 'Kav', 'KAVYA@Example.org']) {
      await userEvent.clear(search);
      await userEvent.type(search, q);
      await apply();
      expect(onApply).toHaveBeenLastCalledWith({ q });
      expect(screen.queryByRole('alert')).toBeNull();
      expect(search.getAttribute('aria-invalid')).toBe('false');
    }
  });

  it('sends no search at all for an empty box', async () => {
    const { onApply, apply } = renderForm(language);
    await apply();
    expect(onApply).toHaveBeenCalledWith({});
  });
});

it('the Tamil hint and error are Tamil, not English', () => {
  for (const text of [staffTa.filters.searchHint, staffTa.filters.searchTooShort, staffTa.table.emptySearch]) {
    expect(text).toMatch(/[\u0B80-\u0BFF]/);
    expect(text.replace(/“[^”]*”/g, '')).not.toMatch(/[A-Za-z]/);
  }
});
