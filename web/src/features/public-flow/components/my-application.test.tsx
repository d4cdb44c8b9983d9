// @vitest-environment happy-dom
import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MyApplication as Data } from '../../../../../rules/my-application';
import { en } from '../../../i18n/en';
import { jsonResponse, renderWithI18n } from '../../../testing/render';
import { readFlow, writeFlow, registeredSnapshot } from '../utils/flow-storage';
import { MyApplication, Withdrawn } from './my-application';

// "My application" on the already-registered screen: everything the server answers is
// shown in the page's language, the switch changes it all at once, and the withdrawal asks
// once, posts the verification and forgets the flow.

const verification = { token: 'verification-token', expiresAt: '2099-11-27T12:00:00.000Z', mobile: '9876543210' };
const api = vi.fn<typeof fetch>();

const data: Data = {
  application: {
    id: 'a1b2c3',
    phone_number: '+919876543210',
    name: 'Kavya Raman',
    email: 'kavya@example.com',
    gender: 'Female',
    date_of_birth: '2004-05-06',
    revenue_district: 'Salem',
    assembly_constituency: 'Attur',
    education: 'Engineering',
    occupation: 'Student',
    is_already_member: false,
    motivation: 'To serve my town.',
    application_status: 'approved',
    submitted_at: '2026-11-20T04:30:00.000Z',
    member_number: 'TN-SW-000042',
  },
  consent: { termsVersion: '2026-11-28', language: 'ta', acceptedAt: '2026-11-20T04:30:00.000Z' },
  history: [
    { at: '2026-11-20T04:30:00.000Z', status: 'pending' },
    { at: '2026-11-21T06:00:00.000Z', status: 'approved' },
  ],
  messages: [{ decision: 'approved', channel: 'sms', sentAt: '2026-11-21T06:05:00.000Z', status: 'delivered' }],
  cardLink: 'abcdefghjkmnpqrs.AAAA',
};

beforeEach(() => vi.stubGlobal('fetch', api));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  api.mockReset();
  sessionStorage.clear();
});

async function openPanel(language: 'en' | 'ta') {
  api.mockResolvedValueOnce(jsonResponse(200, data));
  const onWithdrawn = vi.fn();
  const rendered = renderWithI18n(<MyApplication verification={verification} onWithdrawn={onWithdrawn} />, language);
  await userEvent.click(screen.getByRole('button', { name: language === 'en' ? 'My application' : 'எனது விண்ணப்பம்' }));
  await screen.findByRole('heading', { level: 2 });
  return { ...rendered, onWithdrawn };
}

const valueOf = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;

describe('My application', () => {
  it('posts the verification and shows every field, the consent, the history, the messages and the card', async () => {
    await openPanel('en');
    const [url, init] = api.mock.calls[0]!;
    expect(url).toBe('/api/me');
    expect(init?.body).toBe(JSON.stringify({ verificationToken: 'verification-token' }));
    expect(valueOf('Full name')).toBe('Kavya Raman');
    expect(valueOf('Verified mobile number')).toBe('+91 9876543210');
    expect(valueOf('Date of birth')).toBe('06/05/2004');
    expect(valueOf('Revenue district')).toBe('Salem');
    expect(valueOf('Stream of study')).toBe('Engineering');
    expect(valueOf('Member number')).toBe('TN-SW-000042');
    // A field of the form left empty says so; one the application does not hold is not listed.
    expect(valueOf('Email')).toBe('kavya@example.com');
    expect(valueOf('Alternate mobile number')).toBe('Not given');
    expect(screen.queryByText('Address', { selector: 'dt' })).toBeNull();
    expect(screen.getByText(/data notice \(version 2026-11-28\), in Tamil/)).toBeTruthy();
    expect(screen.getByText('Your application was approved, by SMS: delivered')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open my card' }).getAttribute('href')).toBe(`/card#${data.cardLink}`);
  });

  it('reads the same in Tamil, and the language switch changes every line at once', async () => {
    const { i18n } = await openPanel('ta');
    expect(valueOf('முழுப் பெயர்')).toBe('Kavya Raman');
    expect(valueOf('வருவாய் மாவட்டம்')).toBe('சேலம்');
    expect(valueOf('படிப்புப் பிரிவு')).toBe('பொறியியல்');
    expect(screen.getByText('உங்கள் விண்ணப்பம் ஏற்கப்பட்டது, குறுஞ்செய்தி (SMS) வழியாக: சென்றடைந்தது')).toBeTruthy();
    await act(() => i18n.changeLanguage('en'));
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Your application');
    expect(valueOf('Revenue district')).toBe('Salem');
    expect(document.body.textContent).not.toMatch(/[\u0B80-\u0BFF]/);
  });

  it('withdraws after one confirmation, forgets the flow, and gives way to the confirmation', async () => {
    writeFlow({ ...registeredSnapshot, verification });
    const { onWithdrawn } = await openPanel('en');
    await userEvent.click(screen.getByRole('button', { name: 'Withdraw my application' }));
    expect(api).toHaveBeenCalledTimes(1); // Nothing sent before the confirmation.
    const confirm = screen.getByRole('group', { name: 'Withdraw and erase everything?' });
    api.mockResolvedValueOnce(jsonResponse(200, { erased: data.application.id, confirmationQueued: true }));
    await userEvent.click(within(confirm).getByRole('button', { name: 'Yes, withdraw and erase' }));
    // The server queued a confirmation message: the page may say so.
    await vi.waitFor(() => expect(onWithdrawn).toHaveBeenCalledWith(true));
    const [url, init] = api.mock.calls[1]!;
    expect(url).toBe('/api/me/withdraw');
    expect(init?.body).toBe(JSON.stringify({ verificationToken: 'verification-token' }));
    expect(readFlow().snapshot.step).toBe('mobile');
  });

  it('says the withdrawal is done in place of the step, and offers the home page', async () => {
    const onHome = vi.fn();
    renderWithI18n(<Withdrawn onHome={onHome} />, 'ta');
    expect(screen.getByRole('status').textContent).toBe('உங்கள் விண்ணப்பம் திரும்பப் பெறப்பட்டது; உங்கள் விவரங்கள் அழிக்கப்பட்டன.');
    await userEvent.click(screen.getByRole('button', { name: 'முகப்புப் பக்கத்துக்குச் செல்லவும்' }));
    expect(onHome).toHaveBeenCalled();
  });

  it('says a confirmation message is on its way only when the server queued one', async () => {
    const { unmount } = renderWithI18n(<Withdrawn onHome={() => undefined} confirmationQueued />, 'ta');
    expect(screen.getByRole('status').textContent).toBe(
      'உங்கள் விண்ணப்பம் திரும்பப் பெறப்பட்டது; உங்கள் விவரங்கள் அழிக்கப்பட்டன. இதை உறுதிப்படுத்தும் செய்தி வாட்ஸ்அப் அல்லது குறுஞ்செய்தி (SMS) வழியாக உங்கள் கைபேசி எண்ணுக்கு விரைவில் வரும்.',
    );
    unmount();
    renderWithI18n(<Withdrawn onHome={() => undefined} confirmationQueued={false} />, 'en');
    expect(screen.getByRole('status').textContent).toBe('Your application has been withdrawn and your details erased.');
  });

  it('keeps the application when the visitor thinks again, and says a failed withdrawal in their language', async () => {
    await openPanel('ta');
    await userEvent.click(screen.getByRole('button', { name: 'எனது விண்ணப்பத்தைத் திரும்பப் பெறவும்' }));
    await userEvent.click(screen.getByRole('button', { name: 'விண்ணப்பத்தை வைத்திருக்கவும்' }));
    expect(screen.queryByRole('group')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'எனது விண்ணப்பத்தைத் திரும்பப் பெறவும்' }));
    api.mockResolvedValueOnce(jsonResponse(500, { error: { code: 'INTERNAL', message: 'x' } }));
    await userEvent.click(screen.getByRole('button', { name: 'ஆம், திரும்பப் பெற்று அழிக்கவும்' }));
    expect((await screen.findByRole('alert')).textContent).toBe('உங்கள் விண்ணப்பத்தைத் திரும்பப் பெற இயலவில்லை. மீண்டும் முயலவும்.');
  });

  it('says an expired verification in the page language instead of the panel', async () => {
    api.mockResolvedValueOnce(jsonResponse(401, { error: { code: 'VERIFICATION_REQUIRED', message: 'x' } }));
    renderWithI18n(<MyApplication verification={verification} onWithdrawn={() => undefined} />);
    await userEvent.click(screen.getByRole('button', { name: 'My application' }));
    expect((await screen.findByRole('alert')).textContent).toBe(en.errors.VERIFICATION_REQUIRED);
    expect(screen.queryByRole('heading', { level: 2 })).toBeNull();
  });
});

describe('Correcting my details', () => {
  const corrected = {
    ...data,
    application: { ...data.application, name: 'Kavya R', revenue_district: 'Madurai', assembly_constituency: 'Melur' },
  };

  it('sends only what changed, checked as the form checks it, and shows the application as it now is', async () => {
    await openPanel('en');
    await userEvent.click(screen.getByRole('button', { name: 'Correct my details' }));
    const name = screen.getByLabelText('Full name');
    expect((name as HTMLInputElement).value).toBe('Kavya Raman');
    await userEvent.clear(name);
    await userEvent.type(name, 'Kavya R');
    await userEvent.selectOptions(screen.getByLabelText('Revenue district'), 'Madurai');
    // Another district empties the constituency: the form's own check says so, and nothing is sent.
    await userEvent.click(screen.getByRole('button', { name: 'Save the corrections' }));
    expect(screen.getByRole('alert').textContent).toBe(
      'Some details are not valid. Please check the fields marked below.',
    );
    expect(screen.getByLabelText('Assembly constituency').getAttribute('aria-invalid')).toBe('true');
    expect(api).toHaveBeenCalledTimes(1);
    await userEvent.selectOptions(screen.getByLabelText('Assembly constituency'), 'Melur');
    api.mockResolvedValueOnce(jsonResponse(200, { changed: ['name', 'revenue_district', 'assembly_constituency'] }));
    api.mockResolvedValueOnce(jsonResponse(200, corrected));
    await userEvent.click(screen.getByRole('button', { name: 'Save the corrections' }));
    expect((await screen.findByRole('status')).textContent).toBe('Your details were corrected.');
    const [url, init] = api.mock.calls[1]!;
    expect(url).toBe('/api/me/correct');
    expect(JSON.parse(init?.body as string)).toEqual({
      verificationToken: 'verification-token',
      changes: { name: 'Kavya R', revenue_district: 'Madurai', assembly_constituency: 'Melur' },
    });
    // Read again: the panel shows the corrected values.
    await vi.waitFor(() => expect(valueOf('Full name')).toBe('Kavya R'));
    expect(valueOf('Revenue district')).toBe('Madurai');
  });

  it('sends nothing when nothing changed, and says a refused field next to it in Tamil', async () => {
    await openPanel('ta');
    await userEvent.click(screen.getByRole('button', { name: 'எனது விவரங்களைத் திருத்தவும்' }));
    await userEvent.click(screen.getByRole('button', { name: 'திருத்தங்களைச் சேமிக்கவும்' }));
    expect(screen.getByRole('status').textContent).toBe('எதுவும் மாற்றப்படவில்லை: எல்லா விவரங்களும் ஏற்கெனவே அப்படியே உள்ளன.');
    expect(api).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByRole('button', { name: 'எனது விவரங்களைத் திருத்தவும்' }));
    // The verified number as the alternate one: refused here, before anything is sent.
    await userEvent.type(screen.getByLabelText('மாற்றுக் கைபேசி எண்'), '9876543210');
    await userEvent.click(screen.getByRole('button', { name: 'திருத்தங்களைச் சேமிக்கவும்' }));
    expect(document.getElementById('correct-alternate_phone_number-error')?.textContent).toMatch(/[\u0B80-\u0BFF]/);
    expect(api).toHaveBeenCalledTimes(1);
    // The server's own refusal of a field shows the same way.
    await userEvent.clear(screen.getByLabelText('மாற்றுக் கைபேசி எண்'));
    await userEvent.type(screen.getByLabelText('மாற்றுக் கைபேசி எண்'), '9123456789');
    api.mockResolvedValueOnce(
      jsonResponse(400, { error: { code: 'VALIDATION_FAILED', message: 'x', fields: { name: 'INVALID_CHARACTERS' } } }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'திருத்தங்களைச் சேமிக்கவும்' }));
    await vi.waitFor(() => expect(screen.getByLabelText('முழுப் பெயர்').getAttribute('aria-invalid')).toBe('true'));
  });
});
