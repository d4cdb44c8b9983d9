import { cleanup, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import type { Language } from '../../../i18n/language';
import { jsonResponse, renderWithI18n } from '../../../testing/render';
import { PublicFlow } from '../components/public-flow';
import { emptyForm, type FormValues } from '../utils/application-form';
import { FLOW_STORAGE_KEY, type FlowSnapshot } from '../utils/flow-storage';

// The public flow's tests share this: the number, the right code, the stubbed API (its
// routes and what it was sent), and the page opened on a step.

export const MOBILE = '9876543210';
export const RIGHT_CODE = '123456';

type Route = (body: Record<string, unknown>) => Response | Promise<Response>;
/** The stubbed API's routes: a test may replace one (reset before each test). */
export const routes: Record<string, Route> = {};
const bodyOf = (init: RequestInit | undefined) =>
  JSON.parse(typeof init?.body === 'string' ? init.body : '{}') as Record<string, unknown>;
export const fetchMock = vi.fn<typeof fetch>((input, init) => {
  const route = typeof input === 'string' ? routes[input] : undefined;
  if (!route) return Promise.resolve(jsonResponse(404, { error: { code: 'NOT_FOUND', message: 'x' } }));
  return Promise.resolve(route(bodyOf(init)));
});
export const bodiesOf = (url: string) =>
  fetchMock.mock.calls.filter(([u]) => u === url).map(([, init]) => bodyOf(init));

const inHalfAnHour = () => new Date(Date.now() + 30 * 60_000).toISOString();

/** The captcha stand-in and the API, stubbed before each test of the calling file and removed after. */
export function stubFlowApi(): void {
  beforeEach(() => {
    window.grecaptcha = {
      ready: (callback) => callback(),
      execute: (_key, { action }) => Promise.resolve(`dev.${action}.0.9`),
    };
    for (const key of Object.keys(routes)) delete routes[key];
    Object.assign(routes, {
      '/api/otp/request': () =>
        jsonResponse(200, {
          sentTo: MOBILE,
          channel: 'whatsapp',
          fellBack: false,
          deliveryHandle: 'v1.handle.mac',
          expiresInSeconds: 300,
          resendAfterSeconds: 60,
          smsOfferAfterSeconds: 30,
        }),
      '/api/otp/status': () => jsonResponse(200, { channel: 'whatsapp', status: 'sent', smsOffer: false }),
      '/api/otp/verify': (body) =>
        body.code === RIGHT_CODE
          ? jsonResponse(200, { verificationToken: 'signed-token', expiresAt: inHalfAnHour() })
          : jsonResponse(400, { error: { code: 'OTP_INVALID', message: 'x', attemptsLeft: 4 } }),
      '/api/applications': () => jsonResponse(201, { id: 'app-1' }),
    } satisfies Record<string, Route>);
    vi.stubGlobal('fetch', fetchMock);
  });

  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockClear();
    sessionStorage.clear();
    delete window.grecaptcha;
  });
}

export function stored(): FlowSnapshot | null {
  const raw = sessionStorage.getItem(FLOW_STORAGE_KEY);
  return raw ? (JSON.parse(raw) as FlowSnapshot) : null;
}

/** Opens the page on step 2, as after a verification in this tab. */
/** Renders the flow and waits for the step's chunk (the later steps load lazily). */
export async function renderFlow(language: Language = 'en') {
  const result = renderWithI18n(<PublicFlow />, language);
  await waitFor(() => expect(document.querySelector('.spinner-wrap')).toBeNull());
  return result;
}

export function openOnForm(form: Partial<FormValues> = {}, expiresAt = inHalfAnHour()) {
  const snapshot: FlowSnapshot = {
    step: 'form',
    mobile: MOBILE,
    verification: { token: 'signed-token', expiresAt, mobile: MOBILE },
    form: { ...emptyForm, ...form },
  };
  sessionStorage.setItem(FLOW_STORAGE_KEY, JSON.stringify(snapshot));
}

export const complete: FormValues = {
  alternate_phone_number: '9000000001',
  name: 'Kavya Raman',
  email: 'kavya@example.com',
  gender: 'Female',
  date_of_birth: '2001-05-14',
  revenue_district: 'Madurai',
  assembly_constituency: 'Madurai East',
  education: 'Engineering',
  occupation: 'Student',
  is_already_member: 'no',
  motivation: 'To serve students in my district.',
  accept_terms: true,
};

export function describedText(element: Element): string {
  return (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}
