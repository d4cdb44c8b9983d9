import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { smsTemplatesSchema, whatsappDecisionTemplatesSchema } from '../lambdas/lib/env';
import { localConfigSchema, localSms, localWhatsAppDecisionTemplates } from './config';
import { matchTemplate } from './sms-sandbox';

describe('local settings', () => {
  it('defaults the messaging settings as the README says', () => {
    expect(localConfigSchema.parse({})).toMatchObject({
      LOCAL_OTP_CHANNELS: 'whatsapp-then-sms',
      LOCAL_SMS_OFFER_AFTER_SECONDS: 30,
      LOCAL_WHATSAPP_TIER: 0,
      LOCAL_DECISION_QUIET_SECONDS: 300,
    });
    expect(() => localConfigSchema.parse({ LOCAL_OTP_CHANNELS: 'email' })).toThrow();
  });

  it('registers templates the functions accept, DLT-shaped, ending with the entity name', () => {
    expect(v.parse(smsTemplatesSchema, localSms.templates)).toEqual(localSms.templates);
    expect(v.parse(whatsappDecisionTemplatesSchema, localWhatsAppDecisionTemplates)).toEqual(
      localWhatsAppDecisionTemplates,
    );
    for (const purpose of ['otp', 'approved', 'rejected'] as const) {
      const { en, ta } = localSms.templates[purpose];
      for (const [template, ending] of [
        [en, "- Students' Wing"],
        [ta, '- மாணவர் அணி'],
      ] as const) {
        expect(template.templateId).toMatch(/^\d{19}$/);
        expect(template.text.endsWith(ending)).toBe(true);
        expect(template.text.normalize('NFC')).toBe(template.text);
      }
    }
    expect(localSms.entityId).toMatch(/^\d{19}$/);
    const body = localSms.templates.otp.ta.text.replace('{#var#}', '123456');
    expect(matchTemplate(localSms.templates.otp.ta.text, body)).toEqual(['123456']);
  });
});
