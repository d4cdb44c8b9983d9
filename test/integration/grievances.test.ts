import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGrievanceRetentionStore } from '../../lambdas/adapters/grievances';
import { makeReviewStore } from '../../lambdas/adapters/review';
import { makeHandler as makeRetention } from '../../lambdas/handlers/retention';
import { DeleteCommand, PutCommand, QueryCommand, ScanCommand } from '../../lambdas/lib/db';
import { localDb } from '../../local/dynamodb';
import { startLocalStack, type LocalStack } from '../../local/stack';
import { districts } from '../../rules/districts';
import type { GrievanceAnswerView, GrievanceOpened, StaffGrievance } from '../../rules/grievances';
import { post, submitBody, uniqueMobile } from '../support/public-flow';
import { otpFor } from '../support/staff-data';
import { testStackConfig } from '../support/test-stack';
import { signIn } from '../support/tokens';

// Issue 21's grievances on the whole local stack, through the real handlers on DynamoDB
// Local: an applicant opens one after the code (it names their application and district),
// anyone with a contact number behind the captcha (it names none, even for a number that
// applied); bad input is refused with its code and stores nothing; staff see the tickets
// they may (a coordinator of Chennai not Madurai's, nor one without an application) with
// their due dates, answer them (the answer reaches the WhatsApp sandbox's outbox, or the SMS
// sandbox's with the answer page's link), and close them, each change audited; the
// retention job, its clock moved, erases exactly the closed tickets past their period and
// counts the open ones due within 7 days.

let stack: LocalStack;
const tokens = { admin: '', coordinator: '' };
const DAY = 86_400_000;
const chennai = districts.find((d) => d.en === 'Chennai')!;

beforeAll(async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';
  stack = await startLocalStack(testStackConfig({ LOCAL_QUEUE_VISIBILITY_MS: '100' }));
  tokens.admin = await signIn(stack.cognitoEndpoint, stack.pool.clientId, stack.admin);
  tokens.coordinator = await signIn(stack.cognitoEndpoint, stack.pool.clientId, stack.coordinator);
}, 90_000);
afterAll(async () => {
  await stack?.stop();
});

const db = () => localDb(stack.dynamoDbEndpoint);

/** A real code for `mobile`, checked: the verification the public page holds afterwards. */
async function verify(mobile: string): Promise<string> {
  // The number's resend cooldown (60 s): this file asks twice for some numbers.
  await db().send(
    new DeleteCommand({ TableName: stack.tableNames.rateLimits, Key: { pk: `cooldown#otp#91${mobile}` } }),
  );
  const sent = await post(stack.apiUrl, '/api/otp/request', { mobile, captchaToken: 'dev.send_otp.0.9' });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const verified = await post(stack.apiUrl, '/api/otp/verify', { mobile, code: await otpFor(stack.apiUrl, mobile) });
  const error = verified.body.error as { verificationToken?: string } | undefined;
  const token: unknown = verified.body.verificationToken ?? error?.verificationToken;
  if (typeof token !== 'string') throw new Error(`no verification: ${JSON.stringify(verified.body)}`);
  return token;
}

/** An applicant of `district` who proved their number again after applying: their verification and application id. */
async function applicant(mobile: string, district?: typeof chennai) {
  const token = await verify(mobile);
  const overrides = district
    ? { revenue_district: district.en, assembly_constituency: district.constituencies[0]!.en }
    : {};
  const submitted = await post(stack.apiUrl, '/api/applications', submitBody(token, overrides));
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
  return { id: String(submitted.body.id), token: await verify(mobile) };
}

async function staff<T = Record<string, unknown>>(
  who: keyof typeof tokens,
  method: string,
  path: string,
  body?: unknown,
) {
  const response = await fetch(`${stack.apiUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[who]}` },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as T & { error?: { code: string } } };
}

const list = async (who: keyof typeof tokens) =>
  (await staff<{ items: StaffGrievance[] }>(who, 'GET', '/api/admin/grievances')).body.items;
const tickets = async () =>
  (await db().send(new ScanCommand({ TableName: stack.tableNames.grievances, ConsistentRead: true }))).Items ?? [];
const ticketOf = async (reference: string) =>
  (await tickets()).find((item) => String(item.id).slice(0, 8).toUpperCase() === reference.replace('-', ''));
const contact = (mobile: string, text: string, extra: Record<string, unknown> = {}) =>
  post(stack.apiUrl, '/api/grievances', { mobile, captchaToken: 'dev.grievance.0.9', text, language: 'ta', ...extra });

const state = {
  madurai: { mobile: '', id: '', token: '', reference: '' },
  chennai: { mobile: '', id: '', token: '', reference: '' },
  contact: { reference: '' },
};

describe('opening a grievance', () => {
  it('after the code: the reference and a due date 90 days out, naming the application and its district', async () => {
    state.madurai.mobile = uniqueMobile();
    Object.assign(state.madurai, await applicant(state.madurai.mobile));
    const before = Date.now();
    const opened = await post(stack.apiUrl, '/api/me/grievances', {
      verificationToken: state.madurai.token,
      text: 'My district is shown wrong.\nPlease correct it.',
      language: 'en',
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const body = opened.body as unknown as GrievanceOpened;
    expect(body.reference).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    const due = Date.parse(body.dueAt);
    expect(due).toBeGreaterThanOrEqual(before + 90 * DAY);
    expect(due).toBeLessThanOrEqual(Date.now() + 90 * DAY);
    state.madurai.reference = body.reference;
    expect(await ticketOf(body.reference)).toMatchObject({
      via: 'verified',
      application_id: state.madurai.id,
      district: 'Madurai',
      phone_number: `91${state.madurai.mobile}`,
      status: 'open',
      queue: 'open',
      due_at: body.dueAt,
    });

    state.chennai.mobile = uniqueMobile();
    Object.assign(state.chennai, await applicant(state.chennai.mobile, chennai));
    const second = await post(stack.apiUrl, '/api/me/grievances', {
      verificationToken: state.chennai.token,
      text: 'என் விண்ணப்பம் இன்னும் பரிசீலனையில் உள்ளது.',
      language: 'ta',
    });
    expect(second.status).toBe(201);
    state.chennai.reference = String(second.body.reference);
  });

  it('with a contact number behind the captcha: no application named, even for a number that applied', async () => {
    const opened = await contact(state.madurai.mobile, 'என் தரவை அழிக்க வேண்டும்.');
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    state.contact.reference = String(opened.body.reference);
    const item = await ticketOf(state.contact.reference);
    expect(item).toMatchObject({ via: 'contact', language: 'ta', status: 'open' });
    expect(item?.application_id).toBeUndefined();
    expect(item?.district).toBeUndefined();
  });

  it('refuses bad input with a stable code, never a 500, and stores nothing', async () => {
    const count = (await tickets()).length;
    const refused = [
      [await contact(uniqueMobile(), ''), 400, 'VALIDATION_FAILED', { text: 'REQUIRED' }],
      [await contact(uniqueMobile(), 'a'.repeat(1001)), 400, 'VALIDATION_FAILED', { text: 'TOO_LONG' }],
      [await contact(uniqueMobile(), 'bad\u0000text'), 400, 'VALIDATION_FAILED', { text: 'INVALID_CHARACTERS' }],
      [await contact('5876543210', 'ok'), 400, 'VALIDATION_FAILED', { mobile: 'INVALID_PHONE_START' }],
      [await contact(uniqueMobile(), 'ok', { language: 'hi' }), 400, 'VALIDATION_FAILED', { language: 'REQUIRED' }],
      // The code request's captcha action is not this form's; a low score is a robot's.
      [await contact(uniqueMobile(), 'ok', { captchaToken: 'dev.send_otp.0.9' }), 400, 'CAPTCHA_FAILED'],
      [await contact(uniqueMobile(), 'ok', { captchaToken: 'dev.grievance.0.1' }), 400, 'CAPTCHA_FAILED'],
      [await post(stack.apiUrl, '/api/grievances', '{not json'), 400, 'VALIDATION_FAILED'],
      [await post(stack.apiUrl, '/api/grievances', []), 400, 'VALIDATION_FAILED'],
      [
        await post(stack.apiUrl, '/api/me/grievances', { verificationToken: 'v1.forged', text: 'ok', language: 'en' }),
        401,
        'VERIFICATION_REQUIRED',
      ],
      [
        await post(stack.apiUrl, '/api/me/grievances', { verificationToken: state.madurai.token, language: 'en' }),
        400,
        'VALIDATION_FAILED',
        { text: 'REQUIRED' },
      ],
      [
        await post(stack.apiUrl, '/api/grievances/answer', { link: 'k7qm2xrtabcdefgh.AAAAAAAAAAAAAAAAAAAAAA' }),
        404,
        'NOT_FOUND',
      ],
    ] as const;
    for (const [answer, status, code, fields] of refused) {
      expect({ status: answer.status, code: answer.body.error?.code }, JSON.stringify(answer.body)).toEqual({
        status,
        code,
      });
      if (fields) expect(answer.body.error.fields).toEqual(fields);
    }
    expect((await tickets()).length).toBe(count);
  });

  it('limits a number to three a day by each way: the form cannot use up what its owner may open after the code', async () => {
    // The Madurai number has opened one with the contact form (and one after the code).
    for (const text of ['A second one.', 'A third one.'])
      expect((await contact(state.madurai.mobile, text)).status).toBe(201);
    const count = (await tickets()).length;
    const fourth = await contact(state.madurai.mobile, 'A fourth one.');
    expect({ status: fourth.status, code: fourth.body.error?.code }).toEqual({ status: 429, code: 'RATE_LIMITED' });
    expect(fourth.body.error.retryAfterSeconds).toBeGreaterThan(0);
    expect((await tickets()).length).toBe(count);
    const owner = await post(stack.apiUrl, '/api/me/grievances', {
      verificationToken: state.madurai.token,
      text: 'Still mine to send.',
      language: 'en',
    });
    expect(owner.status).toBe(201);
  });
});

describe('staff', () => {
  it('see the tickets they may, the soonest due first, with due dates and the number masked', async () => {
    const all = await list('admin');
    const references = all.map((g) => g.reference);
    expect(references).toEqual(
      expect.arrayContaining([state.madurai.reference, state.chennai.reference, state.contact.reference]),
    );
    expect(all.map((g) => g.dueAt)).toEqual([...all.map((g) => g.dueAt)].sort());
    const mine = all.find((g) => g.reference === state.madurai.reference)!;
    expect(mine).toMatchObject({
      status: 'open',
      via: 'verified',
      applicationId: state.madurai.id,
      district: 'Madurai',
      text: 'My district is shown wrong.\nPlease correct it.',
      phone: `91XXXXXX${state.madurai.mobile.slice(-4)}`,
    });
    expect(JSON.stringify(all)).not.toContain(state.madurai.mobile);

    // The coordinator of Chennai and Tiruvallur: Chennai's only, not Madurai's nor one without an application.
    expect((await list('coordinator')).map((g) => g.reference)).toEqual([state.chennai.reference]);
  });

  it('of another district can neither answer nor close a ticket: it is not found, and nothing changes', async () => {
    for (const reference of [state.madurai.reference, state.contact.reference]) {
      const id = String((await ticketOf(reference))!.id);
      const answered = await staff('coordinator', 'POST', `/api/admin/grievances/${id}/answer`, { answer: 'No.' });
      const closed = await staff('coordinator', 'POST', `/api/admin/grievances/${id}/close`, {});
      expect([answered.status, answered.body.error?.code, closed.status, closed.body.error?.code]).toEqual([
        404,
        'NOT_FOUND',
        404,
        'NOT_FOUND',
      ]);
      expect(await ticketOf(reference)).toMatchObject({ status: 'open' });
    }
  });

  it('answer: the answer reaches the WhatsApp outbox in the ticket’s language, once; a second answer is refused', async () => {
    const id = String((await ticketOf(state.madurai.reference))!.id);
    const answered = await staff<{ grievance: StaffGrievance }>('admin', 'POST', `/api/admin/grievances/${id}/answer`, {
      answer: 'We have corrected your district.\n\nThank you for writing.',
    });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    expect(answered.body.grievance).toMatchObject({ status: 'answered', reference: state.madurai.reference });
    const to = `91${state.madurai.mobile}`;
    await expect
      .poll(() => stack.whatsApp.messages().filter((m) => m.kind === 'grievance' && m.to === to), { timeout: 20_000 })
      .toEqual([
        expect.objectContaining({
          template: 'grievance_answer',
          language: 'en',
          body: `${state.madurai.reference} We have corrected your district. Thank you for writing.`,
        }) as unknown,
      ]);
    await expect
      .poll(async () => (await list('admin')).find((g) => g.id === id)?.answerSentAt, { timeout: 20_000 })
      .toBeDefined();
    const again = await staff('admin', 'POST', `/api/admin/grievances/${id}/answer`, { answer: 'Again.' });
    expect([again.status, again.body.error?.code]).toEqual([409, 'GRIEVANCE_NOT_OPEN']);
    expect(stack.whatsApp.messages().filter((m) => m.kind === 'grievance' && m.to === to)).toHaveLength(1);

    // A coordinator answers a ticket of their districts.
    const chennaiId = String((await ticketOf(state.chennai.reference))!.id);
    const theirs = await staff('coordinator', 'POST', `/api/admin/grievances/${chennaiId}/answer`, {
      answer: 'உங்கள் விண்ணப்பம் இந்த வாரம் பரிசீலிக்கப்படும்.',
    });
    expect(theirs.status).toBe(200);
    await expect
      .poll(() => stack.whatsApp.messages().filter((m) => m.kind === 'grievance').length, { timeout: 20_000 })
      .toBe(2);
  });

  it('answer a number without WhatsApp by SMS, with the link to the answer page', async () => {
    // Nothing else in flight: the refusal armed below is this answer's.
    await stack.outbound.drain(20_000);
    stack.whatsApp.failNext({ times: 1, mode: 'recipient' });
    const ticket = (await ticketOf(state.contact.reference))!;
    const answer = 'உங்கள் தரவு அழிக்கப்பட்டது.';
    expect((await staff('admin', 'POST', `/api/admin/grievances/${String(ticket.id)}/answer`, { answer })).status).toBe(
      200,
    );
    let body = '';
    await expect
      .poll(
        () => {
          body = stack.sms.messages().find((m) => m.kind === 'grievance' && m.to === ticket.phone_number)?.body ?? '';
          return body;
        },
        { timeout: 20_000 },
      )
      .toContain(state.contact.reference);
    const link = /\/grievance\?#([a-z0-9]+\.[\w-]+)/.exec(body)?.[1];
    expect(link?.startsWith(String(ticket.id))).toBe(true);
    const shown = await post(stack.apiUrl, '/api/grievances/answer', { link });
    expect(shown.status).toBe(200);
    expect(shown.body as unknown as GrievanceAnswerView).toMatchObject({ reference: state.contact.reference, answer });
    // The page shows the answer, never the grievance's own text.
    expect(JSON.stringify(shown.body)).not.toContain('தரவை அழிக்க');
    const tampered = await post(stack.apiUrl, '/api/grievances/answer', {
      link: `${link!.slice(0, -1)}${link!.endsWith('A') ? 'B' : 'A'}`,
    });
    expect([tampered.status, tampered.body.error?.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('close: the ticket leaves the list, closing again is refused, and every change is in the audit, without the texts', async () => {
    const id = String((await ticketOf(state.madurai.reference))!.id);
    const closed = await staff<{ grievance: StaffGrievance }>('admin', 'POST', `/api/admin/grievances/${id}/close`, {});
    expect(closed.status).toBe(200);
    expect(closed.body.grievance.status).toBe('closed');
    expect((await list('admin')).map((g) => g.id)).not.toContain(id);
    const again = await staff('admin', 'POST', `/api/admin/grievances/${id}/close`, {});
    expect([again.status, again.body.error?.code]).toEqual([409, 'GRIEVANCE_NOT_OPEN']);
    expect(await ticketOf(state.madurai.reference)).toMatchObject({ status: 'closed', closed_list: 'CLOSED' });

    const audit = await db().send(
      new QueryCommand({
        TableName: stack.tableNames.audit,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': 'GRIEVANCE' },
      }),
    );
    const entries = (audit.Items ?? []).map((e) => ({
      action: e.action as unknown,
      by: e.by as unknown,
      reference: e.reference as unknown,
    }));
    expect(entries).toEqual(
      expect.arrayContaining([
        { action: 'grievance-answer', by: stack.admin.email, reference: state.madurai.reference },
        { action: 'grievance-answer', by: stack.coordinator.email, reference: state.chennai.reference },
        { action: 'grievance-answer', by: stack.admin.email, reference: state.contact.reference },
        { action: 'grievance-close', by: stack.admin.email, reference: state.madurai.reference },
      ]),
    );
    expect(JSON.stringify(audit.Items)).not.toMatch(/corrected|district is shown|அழிக்க|91\d{10}/);
  });
});

describe('the retention job', () => {
  const job = (at: number) =>
    makeRetention({
      db: db(),
      applicationsTable: stack.tableNames.applications,
      review: makeReviewStore(db(), stack.tableNames),
      rejectedDays: 365,
      grievances: {
        store: makeGrievanceRetentionStore(db(), stack.tableNames.grievances),
        db: db(),
        auditTable: stack.tableNames.audit,
        closedDays: 365,
      },
      clock: () => new Date(at),
    })();
  /** A closed ticket stored `daysAgo` days before now (its text and number as any). */
  const closedTicket = (id: string, daysAgo: number) => {
    const closedAt = new Date(Date.now() - daysAgo * DAY).toISOString();
    return {
      pk: `GRIEVANCE#${id}`,
      id,
      text: 'old',
      phone_number: '919000000009',
      language: 'en',
      via: 'contact',
      status: 'closed',
      opened_at: closedAt,
      due_at: closedAt,
      closed_at: closedAt,
      closed_list: 'CLOSED',
    };
  };
  const ids = () => tickets().then((items) => items.map((item) => String(item.id)).sort());

  it('erases exactly the closed tickets past their period, as the clock moves, and audits the count only', async () => {
    const old = closedTicket('retentionoldaaaa', 400);
    const recent = closedTicket('retentionrecentb', 200);
    for (const item of [old, recent]) {
      await db().send(new PutCommand({ TableName: stack.tableNames.grievances, Item: item }));
    }
    const closedNow = String((await ticketOf(state.madurai.reference))!.id);
    const before = await ids();

    // Today: the one closed 400 days ago goes; closed 200 days ago, closed today and every open or answered one stay.
    const today = await job(Date.now());
    expect(today.grievances).toMatchObject({ closedErased: 1, incomplete: false });
    expect(await ids()).toEqual(before.filter((id) => id !== old.id));

    // 170 days on: the one closed 200 days ago is 370 days closed and goes; the one closed today (170) stays.
    const later = await job(Date.now() + 170 * DAY);
    expect(later.grievances).toMatchObject({ closedErased: 1 });
    const left = await ids();
    expect(left).toEqual(before.filter((id) => id !== old.id && id !== recent.id));
    expect(left).toContain(closedNow);

    const audit = await db().send(
      new QueryCommand({
        TableName: stack.tableNames.audit,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': 'GRIEVANCE' },
      }),
    );
    const counts = (audit.Items ?? []).filter((e) => e.action === 'grievance-retention');
    expect(counts.map((e) => ({ erased: e.erased as unknown, by: e.by as unknown }))).toEqual([
      { erased: 1, by: 'system:retention' },
      { erased: 1, by: 'system:retention' },
    ]);
    expect(JSON.stringify(counts)).not.toMatch(/retentionold|retentionrecent/);
  });

  it('counts the open tickets due within 7 days, the overdue ones too, and not the answered or closed', async () => {
    const open = (await tickets()).filter((item) => item.status === 'open');
    expect(open.length).toBeGreaterThan(0);
    expect((await job(Date.now())).grievances?.dueSoon).toBe(0);
    expect((await job(Date.now() + 84 * DAY)).grievances?.dueSoon).toBe(open.length);
    expect((await job(Date.now() + 120 * DAY)).grievances?.dueSoon).toBe(open.length);
  });
});
