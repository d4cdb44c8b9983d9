// The local stack's stand-ins as the browser tier reads and resets them (`/dev/...`,
// local/stack.ts): the outbound queue, the message sandboxes and the webhook sink.

/** Waits until the outbound queue holds nothing visible or in flight (or the time is up). */
export async function queueDrained(appUrl: string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const stats = (await (await fetch(`${appUrl}/dev/queue.json`)).json()) as { visible?: number; inFlight?: number };
    if (!stats.visible && !stats.inFlight) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Leaves the stand-ins as a file found them (another file checks a fresh start): the
 * queue drained first, so that nothing still on its way lands after the reset.
 */
export async function resetStandIns(appUrl: string): Promise<void> {
  await queueDrained(appUrl);
  for (const path of ['/dev/whatsapp/reset', '/dev/sms/reset', '/dev/webhooks/reset']) {
    await fetch(`${appUrl}${path}`, { method: 'POST' });
  }
}

/** One POST the webhook sink received, newest first in `/dev/webhooks.json`. */
export interface WebhookDelivery {
  readonly at: string;
  readonly path: string;
  readonly body: Record<string, unknown>;
}

export async function webhookDeliveries(appUrl: string): Promise<WebhookDelivery[]> {
  return (await (await fetch(`${appUrl}/dev/webhooks.json`)).json()) as WebhookDelivery[];
}
