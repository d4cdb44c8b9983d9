import { districts } from '../../rules/districts';
import { TERMS_VERSION } from '../../rules/application';

// Helpers that walk the public flow over HTTP, as the SPA does.

let counter = 0;
/** A valid, distinct Indian mobile number for each call within a run. */
export function uniqueMobile(): string {
  counter += 1;
  const base = (Date.now() % 1_000_000) * 1000 + process.pid % 1000;
  return `9${String((base + counter * 7919) % 1_000_000_000).padStart(9, '0')}`;
}

export const goodCaptcha = 'dev.send_otp.0.9';

/** A JSON answer of the API; `error` is read as present so tests can assert on it. */
export interface ApiResult {
  status: number;
  body: Record<string, unknown> & {
    error: { code: string; message: string; fields?: Record<string, string>; retryAfterSeconds?: number; attemptsLeft?: number };
  };
}

export async function post(baseUrl: string, path: string, body: unknown): Promise<ApiResult> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.status, body: json as ApiResult['body'] };
}

export function sampleApplication(overrides: Record<string, unknown> = {}) {
  const district = districts.find((d) => d.en === 'Madurai')!;
  return {
    alternate_phone_number: '9000000001',
    name: 'Kavya Raman',
    email: 'kavya@example.com',
    gender: 'Female',
    date_of_birth: '2001-05-14',
    revenue_district: district.en,
    assembly_constituency: district.constituencies[0]!.en,
    education: 'Engineering',
    occupation: 'Student',
    is_already_member: false,
    motivation: 'To serve students in my district.',
    accept_terms: true,
    ...overrides,
  };
}

export function submitBody(verificationToken: string, overrides: Record<string, unknown> = {}) {
  return { verificationToken, language: 'en', termsVersion: TERMS_VERSION, application: sampleApplication(overrides) };
}
