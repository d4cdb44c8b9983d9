import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationIdOf, applicationKey, phoneGuardKey } from '../../lambdas/adapters/application-items';
import { cardGuardKey } from '../../lambdas/adapters/member-cards';
import { withdrawalConfirmationKey } from '../../lambdas/adapters/withdrawal-confirmations';
import { DeleteCommand, GetCommand, QueryCommand, ScanCommand } from '../../lambdas/lib/db';
import { testStackConfig } from '../support/test-stack';
import { localDb } from '../../local/dynamodb';
import { localSms } from '../../local/config';
import { startLocalStack, type LocalStack } from '../../local/stack';
import { TERMS_VERSION } from '../../rules/application-values';
import type { MyApplication } from '../../rules/my-application';
import { goodCaptcha, post, sampleApplication, submitBody, uniqueMobile } from '../support/public-flow';
import { otpFor } from '../support/staff-data';
import { signIn } from '../support/tokens';

// Issue 21's "My application" and withdrawal on the whole local stack, through the real
// handlers on DynamoDB Local: an applicant proves their number with a real code, sees
// every field, their consent, their status history (no staff name) and the notices sent
// to them, then withdraws: nothing of them is left in the applications table, the card
// stops working, the webhook hears `deleted`, the confirmation message reaches the number
// in the language applied in (and the number kept for it goes), and the number can apply again.

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

/** A real code for `mobile`, checked: the verification the public page holds afterwards. */
async function verify(mobile: string): Promise<string> {
  // The number's resend cooldown (60 s) has passed: this test asks twice for some numbers.
  await db().send(
    new DeleteCommand({ TableName: stack.tableNames.rateLimits, Key: { pk: `cooldown#otp#91${mobile}` } }),
  );
  const sent = await post(stack.apiUrl, '/api/otp/request', { mobile, captchaToken: goodCaptcha });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const verified = await post(stack.apiUrl, '/api/otp/verify', { mobile, code: await otpFor(stack.apiUrl, mobile) });
  // A registered number's code check answers ALREADY_REGISTERED with the verification.
  const error = verified.body.error as { verificationToken?: string } | undefined;
  const token: unknown = verified.body.verificationToken ?? error?.verificationToken;
  if (typeof token !== 'string') throw new Error(`no verification: ${JSON.stringify(verified.body)}`);
  return token;
}

async function apply(mobile: string, overrides: Record<string, unknown> = {}): Promise<{ id: string; token: string }> {
  const token = await verify(mobile);
  const submitted = await post(stack.apiUrl, '/api/applications', { ...submitBody(token, overrides), language: 'ta' });
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
  return { id: String(submitted.body.id), token };
}

async function staff(method: string, path: string, body?: unknown) {
  const response = await fetch(`${stack.apiUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, text: await response.text() };
}

const me = (verificationToken: string) => post(stack.apiUrl, '/api/me', { verificationToken });
const withdraw = (verificationToken: string) => post(stack.apiUrl, '/api/me/withdraw', { verificationToken });
const db = () => localDb(stack.dynamoDbEndpoint);
/** The ids of the applications in the table: what the rollups, exports and list must agree with. */
async function applicationsLeft(): Promise<string[]> {
  const scanned = await db().send(new ScanCommand({ TableName: stack.tableNames.applications }));
  return (scanned.Items ?? []).flatMap((item) => {
    const id = applicationIdOf(String(item.pk));
    return id ? [id] : [];
  });
}
const itemOf = async (pk: string) =>
  (await db().send(new GetCommand({ TableName: stack.tableNames.applications, Key: { pk } }))).Item;
/** What the withdrawal keeps for its confirmation message (the number, a day at most). */
const confirmationItem = async (id: string) =>
  (
    await db().send(
      new GetCommand({ TableName: stack.tableNames.deliveries, Key: { pk: withdrawalConfirmationKey(id) } }),
    )
  ).Item;
/** Every message the sandboxes accepted, newest first. */
const outbox = async () =>
  (await (await fetch(`${stack.apiUrl}/dev/outbox.json`)).json()) as {
    kind: string;
    channel: string;
    to: string;
    template?: string;
    language?: string;
  }[];

describe('my application', () => {
  const state: { mobile: string; id: string; token: string; link?: string } = { mobile: '', id: '', token: '' };

  it('shows the applicant every field, the consent and the history after a code; nothing without one', async () => {
    state.mobile = uniqueMobile();
    Object.assign(state, await apply(state.mobile));
    // A new code for a registered number: the page after "already registered".
    const token = await verify(state.mobile);
    const answer = await me(token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const mine = answer.body as unknown as MyApplication;
    const { accept_terms: _accepted, ...fields } = sampleApplication();
    expect(mine.application).toMatchObject({
      ...fields,
      id: state.id,
      phone_number: `91${state.mobile}`,
      application_status: 'pending',
    });
    expect(mine.consent).toMatchObject({ termsVersion: TERMS_VERSION, language: 'ta' });
    expect(mine.history.map((step) => step.status)).toEqual(['pending']);
    expect(mine.messages).toEqual([]);
    expect(mine.cardLink).toBeUndefined();

    expect((await me(`${token}x`)).status).toBe(401);
    const stranger = await me(await verify(uniqueMobile()));
    expect({ status: stranger.status, code: stranger.body.error?.code }).toEqual({
      status: 404,
      code: 'NO_APPLICATION',
    });
  });

  it('shows the approval in the history without who made it, the notice sent, and the card link', async () => {
    expect(
      (await staff('POST', '/api/admin/applications/status', { ids: [state.id], status: 'approved' })).status,
    ).toBe(200);
    await expect
      .poll(async () => ((await me(state.token)).body as unknown as MyApplication).messages.length, { timeout: 20_000 })
      .toBe(1);
    const answer = await me(state.token);
    const mine = answer.body as unknown as MyApplication;
    expect(mine.history.map((step) => step.status)).toEqual(['pending', 'approved']);
    expect(mine.messages[0]).toMatchObject({ decision: 'approved' });
    expect(mine.application.member_number).toMatch(/^TNSW-\d{4}-\d{6}$/);
    const card = await post(stack.apiUrl, '/api/card/mine', { verificationToken: state.token });
    expect(mine.cardLink).toBe(card.body.link);
    state.link = mine.cardLink;
    // The staff member who approved is named nowhere in the answer.
    expect(JSON.stringify(answer.body)).not.toMatch(/admin|@example\.org/);
  });

  it('withdraws in one request: nothing of the application is left, the webhook hears it, the number may apply again', async () => {
    const answer = await withdraw(state.token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toEqual({ erased: state.id, confirmationQueued: true });
    expect(await itemOf(applicationKey(state.id))).toBeUndefined();
    expect(await itemOf(phoneGuardKey(`91${state.mobile}`))).toBeUndefined();
    expect(await itemOf(cardGuardKey(String(state.link).split('.')[0] ?? ''))).toBeUndefined();
    expect((await post(stack.apiUrl, '/api/card', { link: state.link })).body.error?.code).toBe('CARD_NOT_FOUND');
    expect((await staff('GET', `/api/admin/applications/${state.id}`)).status).toBe(404);
    // The audit keeps that it was erased, when, and by the applicant: nothing else.
    const erasures = await db().send(
      new QueryCommand({
        TableName: stack.tableNames.audit,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': 'ERASURES' },
      }),
    );
    const entry = erasures.Items?.find((e) => e.application_id === state.id);
    expect(entry).toMatchObject({ action: 'erase', by: 'applicant' });
    await expect
      .poll(
        () =>
          stack.sink
            .deliveries()
            .filter((d) => (d.body as { application_id?: string }).application_id === state.id)
            .map((d) => d.body),
        { timeout: 20_000 },
      )
      .toContainEqual({ event: 'deleted', application_id: state.id });

    // The confirmation reaches the number by WhatsApp in the language applied in (Tamil),
    // and the item that held the number for it is gone once it was sent.
    await expect
      .poll(async () => (await outbox()).filter((m) => m.kind === 'withdrawn' && m.to === `91${state.mobile}`), {
        timeout: 20_000,
      })
      .toEqual([
        expect.objectContaining({ channel: 'whatsapp', template: 'withdrawal_confirmed', language: 'ta' }) as unknown,
      ]);
    await expect.poll(() => confirmationItem(state.id), { timeout: 20_000 }).toBeUndefined();

    // The rollups, an export and the list count what is left, and list nothing of it.
    const left = await applicationsLeft();
    expect(left).not.toContain(state.id);
    await expect
      .poll(async () => (JSON.parse((await staff('GET', '/api/admin/stats')).text) as { total: number }).total, {
        timeout: 20_000,
      })
      .toBe(left.length);
    const started = await staff('POST', '/api/admin/exports', { filters: {} });
    expect(JSON.parse(started.text)).toMatchObject({ total: left.length });
    const listed = JSON.parse(
      (await staff('POST', '/api/admin/applications/search', { filters: {}, pageSize: 100 })).text,
    ) as { items: { id: string }[] };
    expect(listed.items.map((row) => row.id).sort()).toEqual([...left].sort());

    // A second tap finds nothing; the same number applies again.
    expect((await withdraw(state.token)).body.error?.code).toBe('NO_APPLICATION');
    const again = await apply(state.mobile, { name: 'Kavya R' });
    expect(again.id).not.toBe(state.id);
    state.id = again.id;
  });

  it('confirms a withdrawal by SMS, the registered DLT text in Tamil, when WhatsApp cannot reach the number', async () => {
    const token = await verify(state.mobile);
    // Nothing else in flight (the welcome of the application made again): the refusal armed below is the confirmation's.
    await stack.outbound.drain(20_000);
    stack.whatsApp.failNext({ times: 1, mode: 'recipient' });
    expect((await withdraw(token)).body).toEqual({ erased: state.id, confirmationQueued: true });
    await expect
      .poll(() => stack.sms.messages().filter((m) => m.kind === 'withdrawn' && m.to === `91${state.mobile}`), {
        timeout: 20_000,
      })
      .toEqual([
        // The SMS sandbox accepts only a body that is its registered template to the character.
        expect.objectContaining({ templateId: localSms.templates.withdrawn.ta.templateId }) as unknown,
      ]);
    await expect.poll(() => confirmationItem(state.id), { timeout: 20_000 }).toBeUndefined();
  });
});
