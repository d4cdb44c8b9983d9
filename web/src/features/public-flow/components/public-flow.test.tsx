// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { latestBirthDateForMinimumAge } from '../../../../../rules/age';
import { TERMS_VERSION } from '../../../../../rules/application';
import { jsonResponse } from '../../../testing/render';
import {
  bodiesOf,
  complete,
  describedText,
  fetchMock,
  MOBILE,
  openOnForm,
  renderFlow,
  RIGHT_CODE,
  routes,
  stored,
  stubFlowApi,
} from '../testing/flow-harness';
import { emptyForm } from '../utils/application-form';
import { FLOW_STORAGE_KEY } from '../utils/flow-storage';

stubFlowApi();

describe('public flow: number and code', () => {
  it('says "already registered" in both languages after the right code, in place of the form, and keeps saying it', async () => {
    routes['/api/otp/verify'] = () => jsonResponse(409, { error: { code: 'ALREADY_REGISTERED', message: 'x' } });
    const user = userEvent.setup();
    await renderFlow('ta');
    await user.type(screen.getByLabelText('கைபேசி எண்'), MOBILE);
    const send = screen.getByRole<HTMLButtonElement>('button', { name: 'வாட்ஸ்அப் OTP அனுப்பவும்' });
    await waitFor(() => expect(send.disabled).toBe(false));
    await user.click(send);
    await user.type(await screen.findByLabelText('6 இலக்க OTP-ஐ உள்ளிடவும்'), RIGHT_CODE);
    await user.keyboard('{Enter}');

    const lines = [...(await screen.findByRole('alert')).querySelectorAll('p')];
    expect(lines.map((p) => [p.lang, p.textContent])).toEqual([
      ['ta', 'இந்தக் கைபேசி எண்ணைக் கொண்டு நீங்கள் ஏற்கெனவே பதிவு செய்துள்ளீர்கள்.'],
      ['en', 'You have already registered with this phone number.'],
    ]);
    expect(screen.queryByLabelText('6 இலக்க OTP-ஐ உள்ளிடவும்')).toBeNull();
    // Nothing of the number is kept: a reload shows the message alone.
    expect(stored()).toEqual({ step: 'registered', mobile: '', form: emptyForm });
  });

  it('sends, refuses a wrong code (clearing it), verifies and moves to the form', async () => {
    const user = userEvent.setup();
    await renderFlow();
    await user.type(screen.getByLabelText('Mobile number'), MOBILE);
    await waitFor(() =>
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Send WhatsApp OTP' }).disabled).toBe(false),
    );
    await user.click(screen.getByRole('button', { name: 'Send WhatsApp OTP' }));

    const code = await screen.findByLabelText<HTMLInputElement>('Enter the 6-digit OTP');
    expect(screen.getAllByRole('status')[0]?.textContent).toBe(`OTP sent to WhatsApp number: +91 ${MOBILE}`);
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(code.inputMode).toBe('numeric');
    expect(document.activeElement).toBe(code);
    const verify = screen.getByRole<HTMLButtonElement>('button', { name: 'Verify WhatsApp OTP' });
    await user.type(code, '12a34 5');
    expect(code.value).toBe('12345');
    expect(verify.disabled).toBe(true);
    await user.type(code, '99999');
    expect(code.value).toBe('123459');
    await user.click(verify);

    expect((await screen.findByRole('alert')).textContent).toBe('Invalid OTP. Please try again. 4 attempts left.');
    expect(code.value).toBe('');
    expect(code.getAttribute('aria-invalid')).toBe('true');

    await user.type(code, RIGHT_CODE);
    await user.click(verify);
    expect(await screen.findByRole('heading', { level: 1, name: 'Join the Movement' })).toBe(document.activeElement);
    expect(screen.getByText('WhatsApp number verified')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Verified WhatsApp number').value).toBe(MOBILE);
    // With the send's handle: only its holder hears how many guesses are left.
    expect(bodiesOf('/api/otp/verify').at(-1)).toEqual({ mobile: MOBILE, code: RIGHT_CODE, handle: 'v1.handle.mac' });
    expect(stored()).toMatchObject({ step: 'form', verification: { token: 'signed-token', mobile: MOBILE } });
  });

  it('counts down to resend, and "change phone number" clears number, code and storage', async () => {
    const user = userEvent.setup();
    await renderFlow();
    await user.type(screen.getByLabelText('Mobile number'), MOBILE);
    await waitFor(() =>
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Send WhatsApp OTP' }).disabled).toBe(false),
    );
    await user.click(screen.getByRole('button', { name: 'Send WhatsApp OTP' }));
    const resend = await screen.findByTestId('resend-otp');
    expect(resend.textContent).toMatch(/^Resend OTP in [01]:\d\d$/);
    expect((resend as HTMLButtonElement).disabled).toBe(true);
    expect(stored()).toMatchObject({ step: 'code', mobile: MOBILE, otp: { sentTo: MOBILE } });

    await user.type(screen.getByLabelText('Enter the 6-digit OTP'), '123');
    await user.click(screen.getByRole('button', { name: 'Change phone number' }));
    const number = screen.getByLabelText<HTMLInputElement>('Mobile number');
    expect(number.value).toBe('');
    expect(document.activeElement).toBe(number);
    expect(screen.queryByLabelText('Enter the 6-digit OTP')).toBeNull();
    expect(stored()).toBeNull();
  });

  it('offers to resend once the cool-down is over, with a fresh captcha token', async () => {
    const user = userEvent.setup();
    sessionStorage.setItem(
      FLOW_STORAGE_KEY,
      JSON.stringify({
        step: 'code',
        mobile: MOBILE,
        otp: { sentTo: MOBILE, resendAt: Date.now() - 1 },
        form: emptyForm,
      }),
    );
    await renderFlow();
    const resend = screen.getByRole<HTMLButtonElement>('button', { name: 'Resend OTP' });
    await waitFor(() => expect(resend.disabled).toBe(false));
    await user.click(resend);
    await waitFor(() =>
      expect(bodiesOf('/api/otp/request')).toEqual([
        { mobile: MOBILE, captchaToken: 'dev.send_otp.0.9', language: 'en' },
      ]),
    );
    await waitFor(() => expect(screen.getByTestId('resend-otp').textContent).toMatch(/^Resend OTP in /));
  });
});

describe('public flow: the application form, field by field', () => {
  it('keeps the constituency disabled until a district is chosen, and clears it when the district changes', async () => {
    const user = userEvent.setup();
    openOnForm();
    await renderFlow('ta');
    const district = screen.getByLabelText<HTMLSelectElement>('வருவாய் மாவட்டம்');
    const constituency = screen.getByLabelText<HTMLSelectElement>('சட்டமன்றத் தொகுதி');
    expect(constituency.disabled).toBe(true);
    expect(district.options).toHaveLength(39);

    await user.selectOptions(district, 'Madurai');
    expect(district.selectedOptions[0]?.textContent).toBe('மதுரை');
    expect(constituency.disabled).toBe(false);
    expect(constituency.options).toHaveLength(11);
    await user.selectOptions(constituency, 'Madurai East');
    expect(constituency.selectedOptions[0]?.textContent).toBe('மதுரை கிழக்கு');

    await user.selectOptions(district, 'Chennai');
    expect(constituency.value).toBe('');
    expect(constituency.options).toHaveLength(17);
    expect(stored()?.form).toMatchObject({ revenue_district: 'Chennai', assembly_constituency: '' });
  });

  it('takes the date of birth day first, dd/mm/yyyy, and keeps the phone inputs to digits', async () => {
    const user = userEvent.setup();
    openOnForm();
    await renderFlow();
    const dob = screen.getByLabelText<HTMLInputElement>('Date of birth');
    expect(dob.placeholder).toBe('dd/mm/yyyy');
    await user.type(dob, '14052001');
    expect(dob.value).toBe('14/05/2001');
    expect(stored()?.form).toMatchObject({ date_of_birth: '2001-05-14' });
    const alternate = screen.getByLabelText<HTMLInputElement>('Alternate mobile number');
    await user.type(alternate, '90-0000 0001 55');
    expect(alternate.value).toBe('9000000001');
    expect(alternate.inputMode).toBe('numeric');
    expect(describedText(alternate)).toContain('Enter exactly 10 digits');
  });

  it('marks every missing answer, says why next to it, and moves focus to the first', async () => {
    const user = userEvent.setup();
    openOnForm({ name: 'Kavya' });
    await renderFlow();
    await user.click(screen.getByRole('button', { name: 'Submit application' }));

    const alternate = screen.getByLabelText('Alternate mobile number');
    expect(document.activeElement).toBe(alternate);
    expect(alternate.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(alternate)).toContain('This field is required.');
    expect(screen.getByLabelText('Full name').getAttribute('aria-invalid')).toBe('false');
    expect(screen.getByLabelText('Email (optional)').getAttribute('aria-invalid')).toBe('false');
    for (const radio of screen.getAllByRole('radio')) expect(radio.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(screen.getByRole('checkbox'))).toContain('Please accept the terms');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Some details are missing or not valid. Please check the form.',
    );
    expect(bodiesOf('/api/applications')).toEqual([]);

    // Fixing a field clears its message at once.
    await user.type(alternate, '9000000001');
    expect(alternate.getAttribute('aria-invalid')).toBe('false');
  });

  it('checks a field when it is left with something wrong in it', async () => {
    const user = userEvent.setup();
    openOnForm();
    await renderFlow();
    await user.type(screen.getByLabelText('Alternate mobile number'), MOBILE);
    await user.tab();
    expect(describedText(screen.getByLabelText('Alternate mobile number'))).toContain(
      'The alternate number must be different from your verified number.',
    );
    await user.type(screen.getByLabelText('Email (optional)'), 'kavya@');
    await user.tab();
    expect(screen.getByLabelText('Email (optional)').getAttribute('aria-invalid')).toBe('true');
    // An empty field left behind is not scolded before Submit.
    expect(screen.getByLabelText('Full name').getAttribute('aria-invalid')).toBe('false');
  });

  it("refuses an applicant under 18 with the spec's message", async () => {
    const user = userEvent.setup();
    const under = latestBirthDateForMinimumAge(new Date(Date.now() + 86_400_000 * 2));
    openOnForm({ ...complete, date_of_birth: under });
    await renderFlow();
    await user.click(screen.getByRole('button', { name: 'Submit application' }));
    const dob = screen.getByLabelText('Date of birth');
    expect(document.activeElement).toBe(dob);
    expect(describedText(dob)).toContain('You must be at least 18 years old to apply.');
    expect((await screen.findByRole('alert')).textContent).toBe('You must be at least 18 years old to apply.');
    expect(bodiesOf('/api/applications')).toEqual([]);
  });
});

describe('public flow: the application form, submitted', () => {
  it('submits the English values whatever the language, then thanks in Tamil and English and forgets the answers', async () => {
    const user = userEvent.setup();
    openOnForm({ ...complete, accept_terms: false });
    await renderFlow('ta');
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'பெண்' }).checked).toBe(true);
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'விண்ணப்பத்தைச் சமர்ப்பிக்கவும்' }));

    const heading = await screen.findByRole('heading', { level: 1, name: 'ஒன்றிணைவோம், எதிர்காலத்தை வடிவமைப்போம்!' });
    // Focus follows in an effect after the heading shows: on a busy machine, a moment later.
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(screen.getByText('இணைந்தமைக்கு நன்றி! எங்கள் குழுவினர் விரைவில் உங்களைத் தொடர்புகொள்வார்கள்.').lang).toBe('ta');
    expect(screen.getByText('Thank you for joining! Our team will be in touch with you soon.').lang).toBe('en');
    expect(bodiesOf('/api/applications')).toEqual([
      {
        verificationToken: 'signed-token',
        language: 'ta',
        termsVersion: TERMS_VERSION,
        application: { ...complete, is_already_member: false },
      },
    ]);
    // Only the step is kept, for a reload to thank again: no number, no answers.
    expect(stored()).toEqual({ step: 'done', mobile: '', form: emptyForm });
  });

  it('thanks again after a reload, rather than going back to the number', async () => {
    sessionStorage.setItem(FLOW_STORAGE_KEY, JSON.stringify({ step: 'done', mobile: '', form: emptyForm }));
    await renderFlow();
    expect(await screen.findByRole('heading', { level: 1, name: 'Together, we shape the future!' })).toBeTruthy();
    expect(screen.queryByLabelText('Mobile number')).toBeNull();
  });

  it('maps server field errors onto their fields', async () => {
    const user = userEvent.setup();
    routes['/api/applications'] = () =>
      jsonResponse(400, {
        error: { code: 'VALIDATION_FAILED', message: 'x', fields: { alternate_phone_number: 'ALTERNATE_PHONE_SAME' } },
      });
    openOnForm(complete);
    await renderFlow();
    await user.click(screen.getByRole('button', { name: 'Submit application' }));
    const alternate = screen.getByLabelText('Alternate mobile number');
    await waitFor(() => expect(alternate.getAttribute('aria-invalid')).toBe('true'));
    expect(document.activeElement).toBe(alternate);
    expect(describedText(alternate)).toContain('The alternate number must be different');
  });

  it('says "already registered" in both languages when the number was used meanwhile', async () => {
    const user = userEvent.setup();
    routes['/api/applications'] = () => jsonResponse(409, { error: { code: 'ALREADY_REGISTERED', message: 'x' } });
    openOnForm(complete);
    await renderFlow();
    await user.click(screen.getByRole('button', { name: 'Submit application' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('You have already registered with this phone number.').lang).toBe('en');
    expect(within(alert).getByText('இந்தக் கைபேசி எண்ணைக் கொண்டு நீங்கள் ஏற்கெனவே பதிவு செய்துள்ளீர்கள்.').lang).toBe('ta');
  });

  it('keeps the form and says so when the connection drops', async () => {
    const user = userEvent.setup();
    fetchMock.mockImplementationOnce(() => Promise.reject(new TypeError('Failed to fetch')));
    openOnForm(complete);
    await renderFlow();
    await user.click(screen.getByRole('button', { name: 'Submit application' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Network error. Please try again.');
    expect(screen.getByLabelText<HTMLInputElement>('Full name').value).toBe('Kavya Raman');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Submit application' }).disabled).toBe(false);
    expect(stored()?.form).toEqual(complete);
  });

  it('goes back to step 1 when the server says the verification is no longer valid', async () => {
    const user = userEvent.setup();
    routes['/api/applications'] = () => jsonResponse(401, { error: { code: 'VERIFICATION_REQUIRED', message: 'x' } });
    openOnForm(complete);
    await renderFlow();
    await user.click(screen.getByRole('button', { name: 'Submit application' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Your verification has expired. Please verify your phone number again.',
    );
    expect(screen.getByLabelText<HTMLInputElement>('Mobile number').value).toBe(MOBILE);
    expect(stored()).toMatchObject({ step: 'mobile', form: complete });
    expect(stored()?.verification).toBeUndefined();
  });
});
