import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomInt } from 'node:crypto';
import { type Db } from '../../lambdas/lib/db';
import { localDb } from '../../local/dynamodb';
import { type CsvRow, importApplications } from '../../ops/import';
import { localEndpointsSchema, type LocalEndpoints } from '../../ops/target';
import { goodCaptcha, post, submitBody } from './public-flow';
import { signIn } from './tokens';

// Data for the staff-area tests, made the ways the product makes it: applicants through
// the public flow over HTTP, and volume through the import command's core.

/** The running stack's endpoints, as `npm start` wrote them for the operator commands. */
export function readLocalEndpoints(dataDir: string): LocalEndpoints {
  return localEndpointsSchema.parse(JSON.parse(readFileSync(join(dataDir, 'endpoints.json'), 'utf8')));
}

/** A valid Indian mobile number (first digit 6-9), random enough not to meet another test's. */
export function randomMobile(): string {
  return `${randomInt(6, 10)}${String(randomInt(0, 1_000_000_000)).padStart(9, '0')}`;
}

/** Lower-case letters only: a surname no other test's data carries. */
export function randomMarker(length = 8): string {
  return Array.from({ length }, () => String.fromCharCode(97 + randomInt(0, 26))).join('');
}

interface OutboxMessage {
  readonly id: string;
  readonly to: string;
  readonly kind: string;
  readonly code?: string;
}

/** The code the stack sent the number, read from the local outbox. */
export async function otpFor(appUrl: string, mobile: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const outbox = (await (await fetch(`${appUrl}/dev/outbox.json`)).json()) as OutboxMessage[];
    const found = outbox.find((m) => m.kind === 'otp' && m.to === `91${mobile}` && m.code);
    if (found?.code) return found.code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no OTP reached the outbox for ${mobile}`);
}

/** One applicant through the public flow (code, verify, submit); answers the application id. */
export async function applyThroughPublicFlow(
  appUrl: string,
  mobile: string,
  application: Record<string, unknown>,
): Promise<string> {
  const sent = await post(appUrl, '/api/otp/request', { mobile, captchaToken: goodCaptcha });
  if (sent.status !== 200) throw new Error(`otp/request ${sent.status}: ${JSON.stringify(sent.body)}`);
  const verified = await post(appUrl, '/api/otp/verify', { mobile, code: await otpFor(appUrl, mobile) });
  if (verified.status !== 200) throw new Error(`otp/verify ${verified.status}: ${JSON.stringify(verified.body)}`);
  const submitted = await post(
    appUrl,
    '/api/applications',
    submitBody(String(verified.body.verificationToken), application),
  );
  if (submitted.status !== 201) throw new Error(`applications ${submitted.status}: ${JSON.stringify(submitted.body)}`);
  return String(submitted.body.id);
}

/** The functions' DynamoDB client on the running stack's DynamoDB Local. */
export function stackDocumentClient(endpoints: LocalEndpoints): Db {
  return localDb(endpoints.dynamoDbEndpoint);
}

/** Rows as the first version's export has them (the columns of spec section 3). */
export type LegacyRecord = Record<string, string>;

/** Loads rows through the import command's core, straight into the stack's DynamoDB. */
export async function importRecords(endpoints: LocalEndpoints, records: readonly LegacyRecord[]) {
  const db = stackDocumentClient(endpoints);
  async function* rows(): AsyncGenerator<CsvRow> {
    for (const [i, record] of records.entries()) yield { line: i + 2, record };
  }
  const tableName = endpoints.tableNames.applications;
  if (!tableName) throw new Error('endpoints.json names no applications table');
  return await importApplications({ db, tableName, rows: rows() });
}

/** A staff API call's status and JSON answer, read as `T` (tests assert on what they need). */
export interface StaffApiResult<T> {
  readonly status: number;
  readonly body: T;
}

/** Calls the staff API with the staff member's id token, as the SPA does. */
export function staffApi(appUrl: string, token: string) {
  return async <T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<StaffApiResult<T>> => {
    const response = await fetch(`${appUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
    });
    return { status: response.status, body: (await response.json()) as T };
  };
}

/** The admin `npm start` seeds (README "Local mode"). */
export const seededAdmin = { email: 'admin@example.com', password: 'Admin-Password-123!' } as const;

/** The staff API as the seeded admin of the stack whose data is in `dataDir`. */
export async function seededAdminApi(appUrl: string, dataDir: string): Promise<ReturnType<typeof staffApi>> {
  const endpoints = readLocalEndpoints(dataDir);
  return staffApi(appUrl, await signIn(endpoints.cognitoEndpoint, endpoints.userPoolClientId, seededAdmin));
}
