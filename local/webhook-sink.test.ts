import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startWebhookSink, type WebhookSink } from './webhook-sink';

let sink: WebhookSink;

beforeAll(async () => {
  sink = await startWebhookSink({ port: 0, username: 'hook', password: 's3cret' });
});
afterAll(async () => {
  await sink.close();
});
beforeEach(() => {
  sink.reset();
});

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

function deliver(body: string, auth: string | null = basic('hook', 's3cret'), signal?: AbortSignal) {
  return fetch(`${sink.url}/hooks/application`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(auth !== null && { authorization: auth }) },
    body,
    ...(signal && { signal }),
  });
}

describe('webhook sink', () => {
  it('enforces basic auth', async () => {
    for (const auth of [null, basic('hook', 'wrong'), basic('other', 's3cret'), 'Bearer s3cret']) {
      const response = await deliver('{"a":1}', auth);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    }
    expect(sink.deliveries()).toEqual([]);
  });

  it('records JSON deliveries newest first, and refuses a body that is not JSON', async () => {
    expect((await deliver(JSON.stringify({ application_id: 'a1' }))).status).toBe(200);
    expect((await deliver(JSON.stringify({ application_id: 'a2' }))).status).toBe(200);
    expect((await deliver('not json')).status).toBe(400);
    const deliveries = sink.deliveries();
    expect(deliveries.map((d) => d.body)).toEqual([{ application_id: 'a2' }, { application_id: 'a1' }]);
    expect(deliveries[0]?.path).toBe('/hooks/application');
    expect(deliveries[0]?.headers.authorization).toBeUndefined();
  });

  it('answers 503 while down, then accepts again', async () => {
    sink.setDown(true);
    expect((await deliver('{"n":1}')).status).toBe(503);
    sink.setDown(false);
    expect((await deliver('{"n":2}')).status).toBe(200);
    expect(sink.deliveries().map((d) => d.body)).toEqual([{ n: 2 }]);
  });

  it('injects 500s and timeouts, then accepts', async () => {
    sink.failNext({ times: 1, mode: 'http500' });
    expect((await deliver('{"n":1}')).status).toBe(500);
    sink.failNext({ mode: 'timeout' });
    await expect(deliver('{"n":2}', undefined, AbortSignal.timeout(150))).rejects.toThrow(/timeout|aborted/i);
    expect((await deliver('{"n":3}')).status).toBe(200);
    expect(sink.deliveries().map((d) => d.body)).toEqual([{ n: 3 }]);
  });

  it('is driven over HTTP by the control API', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${sink.url}/__sink/${path}`, { method: 'POST', body: JSON.stringify(body) });
    expect((await post('down', { down: 'yes' })).status).toBe(400);
    await post('down', { down: true });
    expect((await deliver('{"n":1}')).status).toBe(503);
    await post('down', { down: false });
    await post('fail', { times: 1, mode: 'http500' });
    expect((await deliver('{"n":2}')).status).toBe(500);
    expect((await deliver('{"n":3}')).status).toBe(200);
    const listed = (await (await fetch(`${sink.url}/__sink/deliveries`)).json()) as { deliveries: { body: unknown }[] };
    expect(listed.deliveries.map((d) => d.body)).toEqual([{ n: 3 }]);
    await post('reset', {});
    expect(sink.deliveries()).toEqual([]);
  });
});
