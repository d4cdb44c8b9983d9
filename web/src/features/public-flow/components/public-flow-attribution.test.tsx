// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { LanguageSwitch } from '../../../components/language-switch';
import { renderWithI18n } from '../../../testing/render';
import {
  bodiesOf,
  complete,
  MOBILE,
  openOnForm,
  renderFlow,
  RIGHT_CODE,
  stored,
  stubFlowApi,
} from '../testing/flow-harness';
import { ATTRIBUTION_STORAGE_KEY } from '../utils/attribution';
import { FLOW_STORAGE_KEY } from '../utils/flow-storage';
import { PublicFlow } from './public-flow';

// Issue 19: a campaign's or a member's link (`/?c=…&utm_source=…&r=…`) is read on the
// first view, cleaned, kept in this tab through the flow, and sent with the application.

stubFlowApi();
afterEach(() => {
  window.history.replaceState(null, '', '/');
  localStorage.clear();
});

const address = () => `${window.location.pathname}${window.location.search}`;
const kept = () => JSON.parse(sessionStorage.getItem(ATTRIBUTION_STORAGE_KEY) ?? 'null') as unknown;

describe('public flow: where the visitor came from', () => {
  it('reads the link, keeps it through a language switch and a reload, and sends it with the application', async () => {
    const user = userEvent.setup();
    window.history.replaceState(null, '', '/?c=TNU234&utm_source=instagram&r=not-a-code');
    const first = renderWithI18n(
      <>
        <LanguageSwitch />
        <PublicFlow />
      </>,
    );
    // Kept, and out of the address bar (the malformed referral dropped).
    await waitFor(() => expect(address()).toBe('/'));
    expect(kept()).toEqual({ campaign: 'tnu234', utm_source: 'instagram' });

    await user.type(screen.getByLabelText('Mobile number'), MOBILE);
    const send = screen.getByRole<HTMLButtonElement>('button', { name: 'Send WhatsApp OTP' });
    await waitFor(() => expect(send.disabled).toBe(false));
    await user.click(send);
    await user.type(await screen.findByLabelText('Enter the 6-digit OTP'), RIGHT_CODE);
    await user.keyboard('{Enter}');
    await screen.findByLabelText('Full name');
    await user.click(screen.getByRole('button', { name: 'தமிழ்' }));
    await screen.findByLabelText('முழுப் பெயர்');
    expect(kept()).toEqual({ campaign: 'tnu234', utm_source: 'instagram' });

    // A reload on the form (the answers typed meanwhile), in the chosen language.
    first.unmount();
    sessionStorage.setItem(FLOW_STORAGE_KEY, JSON.stringify({ ...stored(), form: complete }));
    await renderFlow('ta');
    await user.click(screen.getByRole('button', { name: 'விண்ணப்பத்தைச் சமர்ப்பிக்கவும்' }));
    await screen.findByRole('heading', { level: 1, name: 'ஒன்றிணைவோம், எதிர்காலத்தை வடிவமைப்போம்!' });

    expect(bodiesOf('/api/applications')).toMatchObject([
      { language: 'ta', attribution: { campaign: 'tnu234', utm_source: 'instagram' } },
    ]);
    // Sent: nothing kept for a next application.
    expect(sessionStorage.getItem(ATTRIBUTION_STORAGE_KEY)).toBeNull();
  });

  it('drops a malformed link silently: the application goes without attribution, no error', async () => {
    const user = userEvent.setup();
    window.history.replaceState(null, '', '/?c=0o1il0&utm_source=%00&utm_campaign=');
    openOnForm(complete);
    await renderFlow();
    await waitFor(() => expect(address()).toBe('/'));
    await user.click(screen.getByRole('button', { name: 'Submit application' }));
    await screen.findByRole('heading', { level: 1, name: 'Together, we shape the future!' });

    expect(screen.queryByRole('alert')).toBeNull();
    const [body] = bodiesOf('/api/applications');
    expect(body).toBeDefined();
    expect(body).not.toHaveProperty('attribution');
  });

  it('sends no attribution when the page was opened without one', async () => {
    const user = userEvent.setup();
    openOnForm(complete);
    await renderFlow();
    await user.click(screen.getByRole('button', { name: 'Submit application' }));
    await screen.findByRole('heading', { level: 1, name: 'Together, we shape the future!' });
    expect(bodiesOf('/api/applications')[0]).not.toHaveProperty('attribution');
  });
});
