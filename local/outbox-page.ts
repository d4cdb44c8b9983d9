// The outbox as a person reads it: every message the WhatsApp and SMS sandboxes
// accepted, newest first, with its channel, its delivery status and the code of each
// OTP large enough to copy from a phone screen.
import type { SmsSandboxMessage } from './sms-sandbox';
import type { SandboxMessage } from './whatsapp-sandbox';

export type OutboxEntry = (SandboxMessage | SmsSandboxMessage) & {
  readonly channel: 'whatsapp' | 'sms';
  readonly status: 'accepted' | 'sent' | 'delivered' | 'read' | 'failed';
};

/** Both sandboxes' messages, newest first (each list already is; ties keep WhatsApp first). */
export function outboxEntries(whatsapp: readonly SandboxMessage[], sms: readonly SmsSandboxMessage[]): OutboxEntry[] {
  const merged: OutboxEntry[] = [];
  let w = 0;
  let s = 0;
  while (w < whatsapp.length || s < sms.length) {
    const a = whatsapp[w];
    const b = sms[s];
    if (a && (!b || a.at >= b.at)) {
      merged.push(a);
      w += 1;
    } else if (b) {
      merged.push(b);
      s += 1;
    }
  }
  return merged;
}

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export function renderOutbox(entries: readonly OutboxEntry[]): string {
  const rows = entries
    .map(
      (m) => `<li><span class="channel ${escape(m.channel)}">${m.channel === 'sms' ? 'SMS' : 'WhatsApp'}</span>
        <span class="kind">${escape(m.kind)}</span> to <b>${escape(m.to)}</b>
        <span class="status ${escape(m.status)}">${escape(m.status)}</span>
        <time datetime="${escape(m.at)}">${escape(new Date(m.at).toLocaleString('en-IN', { timeZone: 'Asia/Kolkata' }))}</time>
        ${m.code ? `<div class="code">${escape(m.code)}</div>` : ''}
        ${m.template ? `<div>template <code>${escape(m.template)}</code></div>` : ''}
        ${m.body ? `<div class="body">${escape(m.body)}</div>` : ''}</li>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="5"><title>Local outbox</title>
<style>body{font-family:system-ui,sans-serif;margin:1rem;max-width:40rem}li{padding:.75rem 0;border-bottom:1px solid #ddd;list-style:none}
ul{padding:0}.kind,.channel,.status{padding:.1rem .4rem;border-radius:.3rem}.kind{background:#eef}.channel.whatsapp{background:#dcf8c6}.channel.sms{background:#fde8c8}
.status{background:#eee}.status.delivered,.status.read{background:#cfc}.status.failed{background:#fcc}.code{font-size:2rem;letter-spacing:.3rem;font-weight:700}
.body{white-space:pre-wrap}time{color:#555;margin-left:.5rem}</style>
</head><body><h1>Local outbox</h1><p>Messages the WhatsApp and SMS sandboxes accepted, newest first, with their delivery status. This page exists only in local mode and refreshes every 5 seconds.</p>
${entries.length === 0 ? '<p>No messages yet.</p>' : `<ul>${rows}</ul>`}</body></html>`;
}
