// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { emptyForm } from './application-form';
import { clearFlow, FLOW_STORAGE_KEY, type FlowSnapshot, otpSnapshotOf, readFlow, writeFlow } from './flow-storage';

afterEach(() => sessionStorage.clear());

const now = new Date('2026-11-21T10:00:00Z');
const formStep: FlowSnapshot = {
  step: 'form',
  mobile: '9876543210',
  verification: { token: 'signed.token', expiresAt: '2026-11-21T10:30:00Z', mobile: '9876543210' },
  form: { ...emptyForm, name: 'Kavya', revenue_district: 'Madurai' },
};

describe('the flow kept in sessionStorage', () => {
  it('starts fresh when nothing is stored, or something unreadable', () => {
    expect(readFlow(now)).toEqual({ snapshot: { step: 'mobile', mobile: '', form: emptyForm }, expired: false });
    sessionStorage.setItem(FLOW_STORAGE_KEY, '{not json');
    expect(readFlow(now).snapshot.step).toBe('mobile');
    sessionStorage.setItem(FLOW_STORAGE_KEY, JSON.stringify({ ...formStep, mobile: 'drop tables' }));
    expect(readFlow(now).snapshot.mobile).toBe('');
  });

  it('restores the step, the form and a still-valid verification', () => {
    writeFlow(formStep);
    expect(readFlow(now)).toEqual({ snapshot: formStep, expired: false });
  });

  it('goes back to number entry, keeping what was typed, once the verification has expired', () => {
    writeFlow(formStep);
    const later = new Date('2026-11-21T10:30:00Z');
    const restored = readFlow(later);
    expect(restored.expired).toBe(true);
    expect(restored.snapshot).toEqual({ step: 'mobile', mobile: '9876543210', form: formStep.form });
  });

  it('restores the code step with its number, resend time, channel and delivery handle', () => {
    const codeStep: FlowSnapshot = {
      step: 'code',
      mobile: '9876543210',
      otp: otpSnapshotOf(
        {
          sentTo: '9876543210',
          channel: 'sms',
          fellBack: true,
          deliveryHandle: 'v1.payload.mac',
          expiresInSeconds: 300,
          resendAfterSeconds: 60,
          smsOfferAfterSeconds: null,
        },
        now.getTime(),
      ),
      form: emptyForm,
    };
    writeFlow(codeStep);
    expect(readFlow(now).snapshot).toEqual(codeStep);
    expect(codeStep.otp).toEqual({
      sentTo: '9876543210',
      resendAt: now.getTime() + 60_000,
      channel: 'sms',
      fellBack: true,
      switched: false,
      handle: 'v1.payload.mac',
      expiresAt: now.getTime() + 300_000,
      smsOfferAt: null,
    });
  });

  it('reads a code step stored before channels as a WhatsApp send without a handle', () => {
    sessionStorage.setItem(
      FLOW_STORAGE_KEY,
      JSON.stringify({
        step: 'code',
        mobile: '9876543210',
        otp: { sentTo: '9876543210', resendAt: 1 },
        form: emptyForm,
      }),
    );
    expect(readFlow(now).snapshot.otp).toEqual({
      sentTo: '9876543210',
      resendAt: 1,
      channel: 'whatsapp',
      fellBack: false,
      switched: false,
      smsOfferAt: null,
    });
  });

  it('is gone once cleared', () => {
    writeFlow(formStep);
    clearFlow();
    expect(sessionStorage.getItem(FLOW_STORAGE_KEY)).toBeNull();
  });
});
