import { describe, expect, it } from 'vitest';
import { SmsError, type SmsGateway } from '../adapters/sms';
import { WhatsAppError } from '../adapters/whatsapp';
import type { WhatsAppRecipients } from '../adapters/whatsapp-recipients';
import type { SmsTemplates } from './env';
import { AppError } from './http';
import { makeOtpChannels, type OtpChannelsDeps, smsOfferOpen } from './otp-channels';

const templates: SmsTemplates = {
  otp: {
    en: { templateId: '1107000000000000001', text: 'Your OTP is {#var#}. Valid for 5 minutes. - TN Student Wing' },
    ta: { templateId: '1107000000000000002', text: 'உங்கள் OTP {#var#}. 5 நிமிடங்கள் செல்லும். - TN Student Wing' },
  },
};

function fakes(
  overrides: Partial<OtpChannelsDeps> & { waError?: Error; smsError?: Error; full?: boolean; recent?: boolean } = {},
) {
  const sent: { channel: string; to: string; text?: string; code?: string }[] = [];
  const recipients: WhatsAppRecipients = {
    isRecent: () => Promise.resolve(overrides.recent ?? false),
    count: () => Promise.resolve(overrides.full ? 250 : 10),
    record: () => Promise.resolve(11),
  };
  const sms: SmsGateway = {
    send: (to, template, variables) => {
      if (overrides.smsError) return Promise.reject(overrides.smsError);
      sent.push({ channel: 'sms', to, text: template.text.replace('{#var#}', variables[0]!) });
      return Promise.resolve('sms-1');
    },
  };
  const channels = makeOtpChannels({
    mode: 'whatsapp-then-sms',
    whatsapp: () =>
      Promise.resolve({
        sendOtp: (to: string, code: string) => {
          if (overrides.waError) return Promise.reject(overrides.waError);
          sent.push({ channel: 'whatsapp', to, code });
          return Promise.resolve('wamid.1');
        },
      }),
    sms: () => Promise.resolve(sms),
    smsTemplates: templates,
    recipients,
    tierLimit: 250,
    ...overrides,
  });
  return { channels, sent };
}

const now = new Date('2026-11-24T10:00:00Z');
const provider = (code: number) => new WhatsAppError('provider', { code, status: 400 });

describe('OTP channels', () => {
  it('sends by WhatsApp when it takes the message', async () => {
    const { channels, sent } = fakes();
    await expect(channels.send('919876543210', '123456', { language: 'en', now })).resolves.toEqual({
      channel: 'whatsapp',
      messageId: 'wamid.1',
      fellBack: false,
    });
    expect(sent).toEqual([{ channel: 'whatsapp', to: '919876543210', code: '123456' }]);
  });

  it.each([
    ['not deliverable', provider(131026)],
    ['throughput', provider(130429)],
    ['spam rate limit', provider(131048)],
    ['pair rate limit', provider(131056)],
    ['policy block', provider(368)],
    ['account locked', provider(131031)],
    ['a 5xx', new WhatsAppError('provider', { code: 131000, status: 500 })],
    ['a timeout', new WhatsAppError('network')],
    ['no credentials', new WhatsAppError('not-configured')],
  ])('falls back to SMS at once when WhatsApp refuses: %s', async (_name, waError) => {
    const { channels, sent } = fakes({ waError });
    const result = await channels.send('919876543210', '123456', { language: 'en', now });
    expect(result).toEqual({ channel: 'sms', messageId: 'sms-1', fellBack: true });
    expect(sent).toEqual([
      { channel: 'sms', to: '919876543210', text: 'Your OTP is 123456. Valid for 5 minutes. - TN Student Wing' },
    ]);
  });

  it('uses the Tamil template on a Tamil page, English where none is registered', async () => {
    const { channels, sent } = fakes({ mode: 'sms' });
    await channels.send('919876543210', '654321', { language: 'ta', now });
    expect(sent[0]?.text).toBe('உங்கள் OTP 654321. 5 நிமிடங்கள் செல்லும். - TN Student Wing');
    const english = fakes({ mode: 'sms', smsTemplates: { otp: { en: templates.otp.en } } });
    await english.channels.send('919876543210', '654321', { language: 'ta', now });
    expect(english.sent[0]?.text).toContain('Your OTP is 654321');
  });

  it('sends a new recipient straight to SMS when the WhatsApp tier is full, not one already messaged', async () => {
    const full = fakes({ full: true });
    expect(await full.channels.send('919876543210', '111111', { language: 'en', now })).toMatchObject({
      channel: 'sms',
      fellBack: true,
    });
    const known = fakes({ full: true, recent: true });
    expect(await known.channels.send('919876543210', '111111', { language: 'en', now })).toMatchObject({
      channel: 'whatsapp',
    });
  });

  it('WhatsApp only: a refusal is a translated error with no SMS to offer', async () => {
    const { channels } = fakes({ mode: 'whatsapp', waError: provider(131026) });
    expect(channels.hasSms).toBe(false);
    const error = await channels.send('919876543210', '1', { language: 'en', now }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'WHATSAPP_UNDELIVERABLE', details: {} });
    // The provider's code stays in the log and the metric: nothing of it reaches the browser.
    expect((error as AppError).details).not.toHaveProperty('providerCode');
    expect((error as AppError).message).not.toContain('#131026');
    const busy = fakes({ mode: 'whatsapp', waError: provider(130429) });
    await expect(busy.channels.send('919876543210', '1', { language: 'en', now })).rejects.toMatchObject({
      code: 'WHATSAPP_BUSY',
    });
  });

  it('SMS only never touches WhatsApp, and maps SMS failures', async () => {
    const { channels, sent } = fakes({ mode: 'sms', waError: new Error('must not be called') });
    expect(await channels.send('919876543210', '222222', { language: 'en', now })).toMatchObject({
      channel: 'sms',
      fellBack: false,
    });
    expect(sent.map((s) => s.channel)).toEqual(['sms']);
    for (const [failure, code] of [
      ['throttled', 'SERVICE_BUSY'],
      ['not-configured', 'SMS_NOT_CONFIGURED'],
      ['rejected', 'SMS_SEND_FAILED'],
      ['network', 'NETWORK_ERROR'],
    ] as const) {
      const failing = fakes({ mode: 'sms', smsError: new SmsError(failure) });
      await expect(failing.channels.send('919876543210', '1', { language: 'en', now })).rejects.toMatchObject({ code });
    }
  });

  it('a stage without SMS templates has no SMS, whatever its mode', () => {
    expect(fakes({ smsTemplates: undefined }).channels.hasSms).toBe(false);
  });
});

describe('the SMS offer', () => {
  const issued = Math.floor(now.getTime() / 1000);
  it('opens when WhatsApp failed, or after the offer time unless delivered or read', () => {
    expect(smsOfferOpen('failed', issued, now, 30)).toBe(true);
    expect(smsOfferOpen('sent', issued, now, 30)).toBe(false);
    expect(smsOfferOpen('sent', issued, new Date(now.getTime() + 30_000), 30)).toBe(true);
    expect(smsOfferOpen(undefined, issued, new Date(now.getTime() + 31_000), 30)).toBe(true);
    expect(smsOfferOpen('delivered', issued, new Date(now.getTime() + 300_000), 30)).toBe(false);
    expect(smsOfferOpen('read', issued, new Date(now.getTime() + 300_000), 30)).toBe(false);
  });
});
