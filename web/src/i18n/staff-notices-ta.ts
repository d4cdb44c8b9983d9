import type { Strings } from './strings';
import type { staffNoticesEn } from './staff-notices-en';

// The details row's decision notices, in the staff namespace under `notices` (staff-ta.ts
// is at the 400-line limit).
export const staffNoticesTa: Strings<typeof staffNoticesEn> = {
  heading: 'முடிவு அறிவிப்புகள்',
  line: 'முடிவு அறிவிப்பு: {{decision}}, {{channel}} வழியாக, {{at}}, {{status}}',
  decision: { approved: 'ஏற்கப்பட்டது', rejected: 'நிராகரிக்கப்பட்டது' },
  channel: { whatsapp: 'வாட்ஸ்அப்', sms: 'குறுஞ்செய்தி (SMS)' },
  status: {
    accepted: 'அனுப்ப ஏற்கப்பட்டது',
    sent: 'அனுப்பப்பட்டது',
    delivered: 'சென்றடைந்தது',
    read: 'படிக்கப்பட்டது',
    failed: 'தோல்வியடைந்தது',
  },
  failedWithCode: 'தோல்வியடைந்தது ({{code}})',
};
