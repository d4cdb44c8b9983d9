// The details row's decision notices, in the staff namespace under `notices` (staff-en.ts
// is near the 400-line limit).
export const staffNoticesEn = {
  heading: 'Decision notices',
  line: 'Decision notice: {{decision}}, by {{channel}}, {{at}}, {{status}}',
  decision: { approved: 'approved', rejected: 'rejected' },
  channel: { whatsapp: 'WhatsApp', sms: 'SMS' },
  status: { accepted: 'accepted', sent: 'sent', delivered: 'delivered', read: 'read', failed: 'failed' },
  failedWithCode: 'failed ({{code}})',
};
