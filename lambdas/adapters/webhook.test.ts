import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toStoredItem } from './application-items';
import { applicationWebhookPayload, makeWebhookClient, WebhookError } from './webhook';
import { startWebhookSink, type WebhookSink } from '../../local/webhook-sink';
import { startServer, type RunningServer } from '../../local/http-util';

// The webhook adapter against the local webhook sink (basic auth, faults on demand).
let sink: WebhookSink;
let redirector: RunningServer;
const credentials = { username: 'hook-user', password: 'hook-pässword' };

beforeAll(async () => {
  sink = await startWebhookSink({ port: 0, ...credentials });
  redirector = await startServer(0, (_req, res) => {
    res.writeHead(302, { location: `${sink.url}/hooks/application` });
    res.end();
  });
});
afterAll(async () => {
  await sink?.close();
  await redirector?.close();
});
beforeEach(() => sink.reset());

const stored = toStoredItem({
  id: 'app-1',
  phone_number: '919876543210',
  alternate_phone_number: '9000000001',
  name: 'Kavya Raman',
  gender: 'Female',
  date_of_birth: '2001-05-14',
  revenue_district: 'Madurai',
  assembly_constituency: 'Melur',
  education: 'Engineering',
  occupation: 'Student',
  is_already_member: false,
  motivation: 'To serve.',
  submitted_at: '2026-11-21T10:00:00.000Z',
  consent: { terms_version: '2026-11-01', language: 'ta', accepted_at: '2026-11-21T10:00:00.000Z' },
});
const payload = applicationWebhookPayload(stored);
const client = (overrides: Partial<Parameters<typeof makeWebhookClient>[0]> = {}) =>
  makeWebhookClient({ url: `${sink.url}/hooks/application`, ...credentials, timeoutMs: 500, ...overrides });

describe('webhook payload', () => {
  it('carries the spec fields and application_id, without index keys or the consent record', () => {
    expect(payload).toEqual({
      id: 'app-1',
      application_id: 'app-1',
      phone_number: '919876543210',
      alternate_phone_number: '9000000001',
      name: 'Kavya Raman',
      email: null,
      gender: 'Female',
      date_of_birth: '2001-05-14',
      revenue_district: 'Madurai',
      assembly_constituency: 'Melur',
      education: 'Engineering',
      specialization: null,
      occupation: 'Student',
      address: null,
      is_already_member: false,
      want_to_volunteer: false,
      want_to_join_and_volunteer: false,
      motivation: 'To serve.',
      application_status: 'pending',
      submitted_at: '2026-11-21T10:00:00.000Z',
      updated_at: '2026-11-21T10:00:00.000Z',
      campaign_code: null,
      campaign_id: null,
      utm_source: null,
      utm_medium: null,
      utm_campaign: null,
      referrer_id: null,
      member_number: null,
    });
  });

  it('carries the member number once the application has one (issue 20)', () => {
    const numbered = { ...stored, application_status: 'approved', member_number: 'TNSW-2026-000123' };
    expect(applicationWebhookPayload(numbered)).toMatchObject({ member_number: 'TNSW-2026-000123' });
  });

  it('carries where the applicant came from, frozen on the application', () => {
    const source = {
      campaign_code: 'state2',
      campaign_id: 'c0ffee00-0000-4000-8000-000000000001',
      utm_source: 'instagram',
      utm_medium: 'social',
      utm_campaign: 'freshers',
      referrer_id: 'app-0',
    };
    expect(applicationWebhookPayload({ ...stored, ...source })).toMatchObject(source);
  });

  it('names missing fields without their values', () => {
    expect(() => applicationWebhookPayload({ ...stored, name: undefined, motivation: 42 })).toThrow(
      /name, motivation$/,
    );
  });
});

describe('webhook client', () => {
  it('POSTs the payload as JSON with basic auth', async () => {
    expect(await client().deliver(payload)).toEqual({ status: 200 });
    const [delivery] = sink.deliveries();
    expect(delivery).toMatchObject({
      path: '/hooks/application',
      body: payload,
      headers: { 'content-type': 'application/json' },
    });
  });

  it.each([
    ['wrong credentials', () => client({ password: 'wrong' }), () => undefined, { failure: 'http', status: 401 }],
    ['a 500', () => client(), () => sink.failNext({ mode: 'http500' }), { failure: 'http', status: 500 }],
    ['a sink that is down', () => client(), () => sink.setDown(true), { failure: 'http', status: 503 }],
    [
      'no answer in time',
      () => client({ timeoutMs: 200 }),
      () => sink.failNext({ mode: 'timeout' }),
      { failure: 'timeout' },
    ],
    ['nobody listening', () => client({ url: 'http://127.0.0.1:9/hook' }), () => undefined, { failure: 'network' }],
    ['a redirect', () => client({ url: redirector.url }), () => undefined, { failure: 'http', status: 302 }],
    ['no URL configured', () => client({ url: '' }), () => undefined, { failure: 'not-configured' }],
  ])('throws a WebhookError for %s', async (_what, make, arrange, expected) => {
    arrange();
    const error = await make()
      .deliver(payload)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookError);
    expect(error).toMatchObject(expected);
    expect(String((error as Error).message)).not.toMatch(/hook-user|pässword|127\.0\.0\.1/);
    expect(sink.deliveries()).toHaveLength(0);
  });
});
