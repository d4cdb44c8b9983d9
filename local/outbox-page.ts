// The outbox as a person reads it: every WhatsApp message the sandbox accepted,
// newest first, with the code of each OTP large enough to copy from a phone screen.
interface OutboxEntry {
  readonly to: string;
  readonly kind: string;
  readonly code?: string;
  readonly template?: string;
  readonly body?: string;
  readonly at: string;
}

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export function renderOutbox(entries: readonly OutboxEntry[]): string {
  const rows = entries
    .map(
      (m) => `<li><span class="kind">${escape(m.kind)}</span> to <b>${escape(m.to)}</b>
        <time datetime="${escape(m.at)}">${escape(new Date(m.at).toLocaleString('en-IN', { timeZone: 'Asia/Kolkata' }))}</time>
        ${m.code ? `<div class="code">${escape(m.code)}</div>` : ''}
        ${m.template ? `<div>template <code>${escape(m.template)}</code></div>` : ''}
        ${m.body ? `<div>${escape(m.body)}</div>` : ''}</li>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="5"><title>Local WhatsApp outbox</title>
<style>body{font-family:system-ui,sans-serif;margin:1rem;max-width:40rem}li{padding:.75rem 0;border-bottom:1px solid #ddd;list-style:none}
ul{padding:0}.kind{background:#eef;padding:.1rem .4rem;border-radius:.3rem}.code{font-size:2rem;letter-spacing:.3rem;font-weight:700}time{color:#555;margin-left:.5rem}</style>
</head><body><h1>Local WhatsApp outbox</h1><p>Messages the WhatsApp sandbox accepted, newest first. This page exists only in local mode and refreshes every 5 seconds.</p>
${entries.length === 0 ? '<p>No messages yet.</p>' : `<ul>${rows}</ul>`}</body></html>`;
}
