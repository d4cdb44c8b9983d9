import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardGuardKey } from '../../lambdas/adapters/member-cards';
import { GetCommand } from '../../lambdas/lib/db';
import { localDb } from '../../local/dynamodb';
import { testStackConfig } from '../support/test-stack';
import { startLocalStack, type LocalStack } from '../../local/stack';
import { istDay } from '../../rules/ist';
import { base64url, type CardView } from '../../rules/member-card';
import type { ApplicationDetail } from '../../rules/staff-api';
import { goodCaptcha, post, submitBody, uniqueMobile } from '../support/public-flow';
import { otpFor } from '../support/staff-data';
import { signIn } from '../support/tokens';

// Issue 20's member card on the whole local stack, through the real handlers on DynamoDB
// Local: an applicant goes through the public flow (a real code, a real verification), an
// admin approves, and the card's link, view, QR token and status follow every change an
// admin makes (revoke, reissue, reject, approve again, erase). The approval's notice
// carries the link, in WhatsApp's URL button and in the SMS text.

let stack: LocalStack;
let admin = '';

beforeAll(async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';
  stack = await startLocalStack(
    testStackConfig({
      LOCAL_PERSISTENCE: 'memory',
      LOCAL_WEB: 'false',
      LOCAL_QUEUE_VISIBILITY_MS: '100',
      LOCAL_DECISION_QUIET_SECONDS: '0',
    }),
  );
  admin = await signIn(stack.cognitoEndpoint, stack.pool.clientId, stack.admin);
}, 90_000);
afterAll(async () => {
  await stack?.stop();
});

interface Applicant {
  readonly id: string;
  readonly phone: string;
  /** The verification of the real code (spent by the submit, still readable by /card/mine). */
  readonly verificationToken: string;
}

/** One applicant through the public flow: code, verification, submit. */
async function apply(name: string): Promise<Applicant> {
  const mobile = uniqueMobile();
  const sent = await post(stack.apiUrl, '/api/otp/request', { mobile, captchaToken: goodCaptcha });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const verified = await post(stack.apiUrl, '/api/otp/verify', { mobile, code: await otpFor(stack.apiUrl, mobile) });
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  const verificationToken = String(verified.body.verificationToken);
  const submitted = await post(stack.apiUrl, '/api/applications', submitBody(verificationToken, { name }));
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
  return { id: String(submitted.body.id), phone: `91${mobile}`, verificationToken };
}

async function staff<T = Record<string, unknown>>(method: string, path: string, body?: unknown) {
  const response = await fetch(`${stack.apiUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as T };
}

async function setStatus(id: string, status: string) {
  const answer = await staff('POST', '/api/admin/applications/status', { ids: [id], status });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}
const detail = async (id: string) => (await staff<ApplicationDetail>('GET', `/api/admin/applications/${id}`)).body;
const cardAction = (id: string, action: string) => staff('POST', `/api/admin/applications/${id}/card`, { action });

const mine = (verificationToken: string) => post(stack.apiUrl, '/api/card/mine', { verificationToken });
const view = (link: unknown) => post(stack.apiUrl, '/api/card', { link });
/** The status answer's raw text: it must be exactly `{"valid":…}`. */
async function status(token: unknown): Promise<string> {
  const response = await fetch(`${stack.apiUrl}/api/card/status`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  expect(response.status).toBe(200);
  return response.text();
}
const VALID = '{"valid":true}';
const NOT_VALID = '{"valid":false}';

async function linkOf(applicant: Applicant): Promise<string> {
  const answer = await mine(applicant.verificationToken);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return String(answer.body.link);
}
async function cardOf(link: string): Promise<CardView> {
  const answer = await view(link);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as unknown as CardView;
}

/** The token with its claims' district changed (signature kept), or one signature bit flipped. */
function tampered(token: string): string[] {
  const [part, signature] = token.split('.') as [string, string];
  const claims = JSON.parse(new TextDecoder().decode(base64url.decode(part))) as Record<string, unknown>;
  const otherClaims = base64url.encode(new TextEncoder().encode(JSON.stringify({ ...claims, d: 'chennai' })));
  const bytes = base64url.decode(signature)!;
  bytes[0]! ^= 0x01;
  return [`${otherClaims}.${signature}`, `${part}.${base64url.encode(bytes)}`];
}

async function waitFor<T>(find: () => T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what}: not in time`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the member card', () => {
  const state: { member?: Applicant; link?: string; token?: string } = {};

  it('is issued on approval: the member gets the link after a code check, a pending applicant does not', async () => {
    const [member, pending] = await Promise.all([apply('Kavya Raman'), apply('Arun Kumar')]);
    state.member = member;
    expect((await mine(member.verificationToken)).body.error.code).toBe('NOT_A_MEMBER');
    await setStatus(member.id, 'approved');

    const card = (await detail(member.id)).card;
    expect(card).toMatchObject({ state: 'active', valid: true, reissues: 0 });
    state.link = await linkOf(member);
    expect(state.link).toMatch(/^[a-z2-9]{16}\.[\w-]{22}$/);

    const refused = await mine(pending.verificationToken);
    expect({ status: refused.status, code: refused.body.error.code }).toEqual({ status: 404, code: 'NOT_A_MEMBER' });
    const forged = await mine(`${member.verificationToken}x`);
    expect(forged.status).toBe(401);
  });

  it('opens the card by its link, with a QR token that checks as valid, and nothing for a wrong link', async () => {
    const { member, link } = state as Required<typeof state>;
    const shown = await cardOf(link);
    const row = (await detail(member.id)).application;
    expect(shown).toMatchObject({
      name: 'Kavya Raman',
      memberNumber: row.member_number,
      district: 'madurai',
      memberSince: istDay(new Date()),
      issuedOn: istDay(new Date()),
    });
    expect(typeof shown.constituency).toBe('number');
    state.token = shown.token;
    expect(await status(shown.token)).toBe(VALID);
    for (const token of tampered(shown.token)) expect(await status(token)).toBe(NOT_VALID);
    expect(await status('not-a-token')).toBe(NOT_VALID);

    const [serial, mac] = link.split('.') as [string, string];
    const otherMac = `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    for (const wrong of [`${serial}.${otherMac}`, `${serial.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'))}.${mac}`]) {
      const answer = await view(wrong);
      expect({ status: answer.status, code: answer.body.error.code }).toEqual({ status: 404, code: 'CARD_NOT_FOUND' });
    }
    expect((await view(42)).status).toBe(400);
  });

  it('carries the link in the approval notice: the WhatsApp button and the SMS text, each opening the card', async () => {
    const { member, link } = state as Required<typeof state>;
    const whatsapp = await waitFor(
      () => stack.whatsApp.messages().find((m) => m.to === member.phone && m.decision === 'approved'),
      'the WhatsApp approval',
    );
    expect(whatsapp.buttonParameter).toBe(link);
    expect(whatsapp.buttonUrl).toBe(`${stack.apiUrl}/card#${link}`);

    // WhatsApp refuses the next one (no WhatsApp on the number): the notice goes by SMS.
    const other = await apply('Meena Selvam');
    // Its welcome goes first (the fault is for the next send, whichever it is).
    await waitFor(
      () => stack.whatsApp.messages().find((m) => m.to === other.phone && m.kind === 'welcome'),
      'the welcome',
    );
    stack.whatsApp.failNext({ times: 1, mode: 'recipient' });
    await setStatus(other.id, 'approved');
    const sms = await waitFor(
      () => stack.sms.messages().find((m) => m.to === other.phone && m.kind === 'decision'),
      'the SMS approval',
    );
    const smsLink = /\/card\?#([a-z2-9]{16}\.[\w-]{22}) /.exec(sms.body)?.[1];
    expect(sms.body).toContain(`${stack.apiUrl}/card?#${smsLink}`);
    expect(smsLink).toBe(await linkOf(other));
    expect((await cardOf(smsLink!)).name).toBe('Meena Selvam');
    await waitFor(
      () => (stack.sms.messages().find((m) => m.id === sms.id)?.status === 'delivered' ? true : undefined),
      'delivered',
    );
  });

  it('stops working when revoked, and a reissue kills the old link and QR while the new ones work', async () => {
    const { member, link, token } = state as Required<typeof state>;
    const revoked = await cardAction(member.id, 'revoke');
    expect(revoked.body).toMatchObject({ card: { state: 'revoked', valid: false } });
    expect((await view(link)).body.error.code).toBe('CARD_NOT_FOUND');
    expect(await status(token)).toBe(NOT_VALID);
    expect((await mine(member.verificationToken)).body.error.code).toBe('NOT_A_MEMBER');

    const reissued = await cardAction(member.id, 'reissue');
    expect(reissued.body).toMatchObject({ card: { state: 'active', valid: true, reissues: 1 } });
    expect((await view(link)).status).toBe(404);
    expect(await status(token)).toBe(NOT_VALID);
    const newLink = await linkOf(member);
    expect(newLink).not.toBe(link);
    const newToken = (await cardOf(newLink)).token;
    expect(await status(newToken)).toBe(VALID);
    Object.assign(state, { link: newLink, token: newToken });

    const trail = (await detail(member.id)).audit.map((entry) => entry.action);
    expect(trail).toEqual(expect.arrayContaining(['card-revoke', 'card-reissue']));
    expect((await cardAction('no-such-application', 'revoke')).status).toBe(404);
    expect((await cardAction(member.id, 'burn')).status).toBe(400);
  });

  it('is not valid while rejected, and valid again with the same serial on approval again', async () => {
    const { member, link, token } = state as Required<typeof state>;
    await setStatus(member.id, 'rejected');
    expect(await status(token)).toBe(NOT_VALID);
    expect((await view(link)).status).toBe(404);
    await setStatus(member.id, 'approved');
    expect(await status(token)).toBe(VALID);
    expect(await linkOf(member)).toBe(link);
    expect((await detail(member.id)).card).toMatchObject({ reissues: 1, valid: true });
  });

  it('goes with an erasure, guard and all, and the card items never count as applications', async () => {
    const { member, link, token } = state as Required<typeof state>;
    expect((await staff('DELETE', `/api/admin/applications/${member.id}`)).status).toBe(200);
    expect(await status(token)).toBe(NOT_VALID);
    expect((await view(link)).status).toBe(404);
    const guard = await localDb(stack.dynamoDbEndpoint).send(
      new GetCommand({ TableName: stack.tableNames.applications, Key: { pk: cardGuardKey(link.split('.')[0]!) } }),
    );
    expect(guard.Item).toBeUndefined();
    // The stream consumer skipped the CARD# and MEMBER# items: the totals count the three applications, less the erased one.
    await stack.applicationsStream.drain(30_000);
    expect((await staff('GET', '/api/admin/stats')).body).toMatchObject({ total: 2 });
  });

  it('publishes the public key, cacheable', async () => {
    const response = await fetch(`${stack.apiUrl}/api/card/keys`);
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    const body = (await response.json()) as { keys: { kid: string; x: string }[] };
    expect(body.keys).toHaveLength(1);
    expect(base64url.decode(body.keys[0]!.x)).toHaveLength(32);
  });
});
