import { describe, expect, it } from 'vitest';
import { outboxEntries, renderOutbox } from './outbox-page';
import type { SmsSandboxMessage } from './sms-sandbox';
import type { SandboxMessage } from './whatsapp-sandbox';

const wa = (id: string, at: string): SandboxMessage => ({
  id,
  channel: 'whatsapp',
  to: '919876543210',
  kind: 'otp',
  code: '123456',
  template: 'auth2',
  status: 'delivered',
  at,
});
const sms = (id: string, at: string): SmsSandboxMessage => ({
  id,
  channel: 'sms',
  to: '919876543211',
  kind: 'otp',
  code: '654321',
  body: '654321 is your OTP <b>',
  templateId: '1207000000000000101',
  template: '1207000000000000101',
  status: 'failed',
  at,
});

describe('outbox', () => {
  it('lists both channels newest first, keeping each entry’s fields', () => {
    const entries = outboxEntries(
      [wa('w2', '2026-01-01T00:00:03.000Z'), wa('w1', '2026-01-01T00:00:01.000Z')],
      [sms('s2', '2026-01-01T00:00:04.000Z'), sms('s1', '2026-01-01T00:00:02.000Z')],
    );
    expect(entries.map((e) => [e.id, e.channel, e.status])).toEqual([
      ['s2', 'sms', 'failed'],
      ['w2', 'whatsapp', 'delivered'],
      ['s1', 'sms', 'failed'],
      ['w1', 'whatsapp', 'delivered'],
    ]);
    expect(entries[0]).toMatchObject({
      kind: 'otp',
      code: '654321',
      to: '919876543211',
      templateId: '1207000000000000101',
    });
  });

  it('renders channel, status and code, escaping the text', () => {
    const html = renderOutbox(
      outboxEntries([wa('w1', '2026-01-01T00:00:01.000Z')], [sms('s1', '2026-01-01T00:00:02.000Z')]),
    );
    expect(html).toContain('>SMS<');
    expect(html).toContain('>WhatsApp<');
    expect(html).toContain('class="status failed"');
    expect(html).toContain('654321 is your OTP &lt;b&gt;');
    expect(html).not.toContain('<b>\n');
  });
});
