// @vitest-environment happy-dom
import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithI18n } from '../testing/render';
import { PageShell } from './page-shell';

// Every public page is framed by PageShell: its footer is where the legal texts are always
// one tap away (issue 21: the notice on every public page), and the grievance form.

afterEach(cleanup);

const footerLinks = () =>
  within(screen.getByRole('contentinfo'))
    .getAllByRole<HTMLAnchorElement>('link')
    .map((link) => [link.textContent, link.getAttribute('href')]);

describe('the footer', () => {
  it('links the terms, the privacy policy, the notice and the grievance form, in either language', async () => {
    const { i18n } = renderWithI18n(<PageShell>page</PageShell>);
    expect(footerLinks()).toEqual([
      ['Terms and conditions', '/terms'],
      ['Privacy policy', '/privacy'],
      ['Data notice', '/notice'],
      ['Raise a grievance', '/grievance'],
    ]);
    await act(() => i18n.changeLanguage('ta'));
    expect(footerLinks()).toEqual([
      ['விதிமுறைகள் மற்றும் நிபந்தனைகள்', '/terms'],
      ['தனியுரிமைக் கொள்கை', '/privacy'],
      ['தரவு அறிவிப்பு', '/notice'],
      ['குறை தெரிவிக்கவும்', '/grievance'],
    ]);
  });

  it('opens the notice over the page, which stays as it was', async () => {
    const user = userEvent.setup();
    renderWithI18n(
      <PageShell>
        <input aria-label="Typed" defaultValue="9876543210" />
      </PageShell>,
    );
    await user.click(screen.getByRole('link', { name: 'Data notice' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByTestId('data-contact')).toBeTruthy();
    expect(within(dialog).getByRole('heading', { level: 2, name: 'Data notice' })).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Typed').value).toBe('9876543210');
  });
});
