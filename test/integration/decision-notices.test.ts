import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, ScanCommand } from '../../lambdas/lib/db';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { toStoredItem } from '../../lambdas/adapters/application-items';
import { makeSqsClient, makeSqsOutboundQueue } from '../../lambdas/adapters/outbound-queue';
import { makeReviewStore } from '../../lambdas/adapters/review';
import { makeDocumentClient } from '../../lambdas/lib/dynamo';
import { testStackConfig } from '../support/test-stack';
import { localLambdaContext } from '../../local/queue';
import { startLocalStack, type LocalStack } from '../../local/stack';
import type { ApplicationDetail, StatusChangeResponse } from '../../rules/staff-api';
import { uniqueMobile } from '../support/public-flow';
import { sendUntilDone } from '../support/status-change';
import { signIn } from '../support/tokens';

// Decision notices on the whole local stack: the admin API queues them (delayed by the
// quiet period), the outbound consumer claims each in the deliveries table and sends it
// through the WhatsApp sandbox, which is made to fail and to throttle on the way.
const QUIET_SECONDS = 2;
let stack: LocalStack;
let adminToken: string;
const db = () =>
  makeDocumentClient({
    STAGE: 'test',
    APP_MODE: 'local',
    AWS_REGION: 'ap-south-1',
    DYNAMODB_ENDPOINT: stack.dynamoDbEndpoint,
  });

beforeAll(async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';
  process.env.WHATSAPP_TIMEOUT_MS = '2000';
  stack = await startLocalStack(
    testStackConfig({
      LOCAL_PERSISTENCE: 'memory',
      LOCAL_WEB: 'false',
      // A failed message comes back after 100 ms, 200 ms, ...: five receives in about 1.5 s.
      LOCAL_QUEUE_VISIBILITY_MS: '100',
      LOCAL_DECISION_QUIET_SECONDS: String(QUIET_SECONDS),
      // By WhatsApp only, so that a refused send is retried rather than sent by SMS.
      LOCAL_OTP_CHANNELS: 'whatsapp',
    }),
  );
  // The local stack turns notices on with its WhatsApp decision templates.
  adminToken = await signIn(stack.cognitoEndpoint, stack.pool.clientId, stack.admin);
}, 90_000);
afterAll(async () => {
  await stack?.stop();
});

/** Stores `count` pending applications straight into the table; returns their ids and numbers. */
async function seed(count: number, language: 'en' | 'ta' = 'en'): Promise<{ id: string; phone: string }[]> {
  const client = db();
  const seeded = Array.from({ length: count }, () => ({ id: randomUUID(), phone: `91${uniqueMobile()}` }));
  for (let i = 0; i < seeded.length; i += 25) {
    await Promise.all(
      seeded.slice(i, i + 25).map(({ id, phone }) =>
        client.send(
          new PutCommand({
            TableName: stack.tableNames.applications,
            Item: toStoredItem({
              id,
              phone_number: phone,
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
              submitted_at: new Date().toISOString(),
              consent: { terms_version: '2026-11-01', language, accepted_at: new Date().toISOString() },
            }),
          }),
        ),
      ),
    );
  }
  // The rollups consumer catches up first: DynamoDB Local on two cores is slow while it works.
  await stack.applicationsStream.drain(30_000);
  return seeded;
}

async function api(path: string, init: RequestInit = {}) {
  const response = await fetch(`${stack.apiUrl}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const setStatus = (ids: readonly string[], status: string) =>
  api('/api/admin/applications/status', { method: 'POST', body: JSON.stringify({ ids, status }) });

const approveUntilDone = async (ids: readonly string[]) => {
  const total = await sendUntilDone(async (left) => {
    const { status, body } = await setStatus(left, 'approved');
    expect(status).toBe(200);
    return body as unknown as StatusChangeResponse;
  }, ids);
  // In the order sent, whichever request changed them.
  return { ...total, changed: ids.filter((id) => total.changed.includes(id)) };
};

/** The decision notices the sandbox accepted for these numbers. */
const noticesTo = (phones: readonly string[], decision: 'approved' | 'rejected' = 'approved') => {
  const wanted = new Set(phones);
  return stack.whatsApp.messages().filter((m) => m.template === `decision_${decision}` && wanted.has(m.to));
};

/** Nothing waiting, delayed or in flight. */
const queueIdle = () => {
  const { visible, inFlight } = stack.outbound.stats();
  return visible + inFlight === 0;
};

async function waitFor(condition: () => boolean, timeoutMs: number, pollMs = 5): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

describe('bulk approval', () => {
  const state: { apps: { id: string; phone: string }[] } = { apps: [] };

  it('sends exactly one notice to each of 100 applicants while the sandbox fails 30 sends and throttles 5', async () => {
    state.apps = [...(await seed(50, 'en')), ...(await seed(50, 'ta'))];
    const ids = state.apps.map((a) => a.id);
    const phones = state.apps.map((a) => a.phone);
    const deliveredBefore = stack.outbound.stats().delivered;

    stack.whatsApp.failNext({ times: 30, mode: 'http500' });
    const started = Date.now();
    // What a loaded request had no time for is sent again, as the staff screen does.
    const body = await approveUntilDone(ids);
    expect(body).toEqual({ changed: ids, unchanged: [], notFound: [], notDone: [] });

    // The 30 refusals come first; as soon as one send gets through, the next 5 meet WhatsApp's throughput limit.
    await waitFor(() => noticesTo(phones).length > 0, 20_000);
    stack.whatsApp.failNext({ times: 5, mode: 'throughput' });
    await stack.outbound.drain(30_000);

    const sent = noticesTo(phones);
    expect(sent).toHaveLength(100);
    expect(new Set(sent.map((m) => m.to)).size).toBe(100);
    expect(Math.min(...sent.map((m) => Date.parse(m.at)))).toBeGreaterThanOrEqual(started + QUIET_SECONDS * 1000);
    // In the applicant's language.
    const tamil = new Set(phones.slice(50));
    for (const m of sent) expect(m.language).toBe(tamil.has(m.to) ? 'ta' : 'en');
    // Each carries its member's own card link in the URL button (issue 20), and it opens the card.
    const links = sent.map((m) => m.buttonParameter ?? '');
    expect(new Set(links).size).toBe(100);
    for (const m of sent) {
      expect(m.buttonParameter).toMatch(/^[a-z2-9]{16}\.[\w-]{22}$/);
      expect(m.buttonUrl).toBe(`${stack.apiUrl}/card#${m.buttonParameter}`);
    }
    for (const link of links.slice(0, 3)) {
      const card = await fetch(`${stack.apiUrl}/api/card`, { method: 'POST', body: JSON.stringify({ link }) });
      expect(card.status).toBe(200);
      expect(await card.json()).toMatchObject({ name: 'Kavya Raman', district: 'madurai' });
    }
    expect(stack.outbound.deadLetters().filter((d) => ids.some((id) => d.body.includes(id)))).toEqual([]);
    // Each throttled send went back to the queue as a copy and its original was reported
    // processed (the http500 failures were retried, processed only once): 100 + 5.
    expect(stack.outbound.stats().delivered - deliveredBefore).toBe(105);
  }, 60_000);

  it('sends nothing new when they are approved again, or when their notices are delivered again', async () => {
    const ids = state.apps.map((a) => a.id);
    const phones = state.apps.map((a) => a.phone);
    expect(ids).toHaveLength(100);
    const { status, body } = await setStatus(ids, 'approved');
    expect(status).toBe(200);
    expect(body).toEqual({ changed: [], unchanged: ids, notFound: [], notDone: [] });
    // The status did not change: nothing queued at all.
    expect(queueIdle()).toBe(true);

    // A redelivery of a notice after its idempotency record expired (a redrive from the
    // dead letters days later): it reaches the claim, which holds the message id, and stops there.
    const client = db();
    const item = await client.send(
      new GetCommand({ TableName: stack.tableNames.applications, Key: { pk: `APP#${ids[0]}` }, ConsistentRead: true }),
    );
    const records = await client.send(
      new ScanCommand({ TableName: stack.tableNames.idempotency, ProjectionExpression: 'id' }),
    );
    for (const record of records.Items ?? []) {
      await client.send(
        new DeleteCommand({ TableName: stack.tableNames.idempotency, Key: { id: record.id as string } }),
      );
    }
    const changedAt = String(item.Item?.status_changed_at);
    expect(Date.parse(changedAt)).not.toBeNaN();
    await stack.outbound.send(
      JSON.stringify({ kind: 'decision', applicationId: ids[0], decision: 'approved', changedAt }),
    );
    await stack.outbound.drain(10_000);
    expect(noticesTo(phones)).toHaveLength(100);
    // What the consumer made of it, as its idempotency record keeps it.
    const after = db();
    const kept = await after.send(new ScanCommand({ TableName: stack.tableNames.idempotency }));
    expect((kept.Items ?? []).map((r) => r.data as unknown)).toEqual([{ kind: 'decision', skipped: 'already-sent' }]);
  });

  it('shows the notice in the details row: decision, channel, time and delivery status', async () => {
    const { id, phone } = state.apps[0]!;
    const { status, body } = await api(`/api/admin/applications/${id}`);
    expect(status).toBe(200);
    const detail = body as unknown as ApplicationDetail;
    const sent = noticesTo([phone])[0]!;
    expect(detail.notices).toEqual([
      {
        decision: 'approved',
        channel: 'whatsapp',
        sentAt: expect.any(String) as unknown,
        status: expect.stringMatching(/^(accepted|sent|delivered|read)$/) as unknown,
      },
    ]);
    expect(Math.abs(Date.parse(detail.notices[0]!.sentAt) - Date.parse(sent.at))).toBeLessThan(2000);
  });
});

describe('quiet period', () => {
  it('sends one approval, after it has stood for the quiet period, when approved, rejected and approved again', async () => {
    const { id, phone } = (await seed(1))[0]!;
    expect((await setStatus([id], 'approved')).status).toBe(200);
    expect((await setStatus([id], 'rejected')).status).toBe(200);
    const lastChange = Date.now();
    expect((await setStatus([id], 'approved')).status).toBe(200);
    await stack.outbound.drain(15_000);

    const sent = noticesTo([phone]);
    expect(sent).toHaveLength(1);
    expect(Date.parse(sent[0]!.at)).toBeGreaterThanOrEqual(lastChange + QUIET_SECONDS * 1000);
    expect(noticesTo([phone], 'rejected')).toEqual([]);
  });

  it('sends nothing to an application erased before its notice went', async () => {
    const { id, phone } = (await seed(1))[0]!;
    expect((await setStatus([id], 'rejected')).status).toBe(200);
    expect((await api(`/api/admin/applications/${id}`, { method: 'DELETE' })).status).toBe(200);
    await stack.outbound.drain(15_000);
    expect(noticesTo([phone], 'rejected')).toEqual([]);
    expect(stack.outbound.deadLetters().filter((d) => d.body.includes(id))).toEqual([]);
  });
});

describe('switches and faults', () => {
  /** Invokes a status handler as API Gateway would, for the local admin. */
  async function invoke(
    handler: (event: APIGatewayProxyEventV2WithJWTAuthorizer, context: unknown) => Promise<unknown>,
    ids: readonly string[],
    status: string,
  ): Promise<APIGatewayProxyStructuredResultV2> {
    const event = {
      routeKey: 'POST /api/admin/applications/status',
      rawPath: '/api/admin/applications/status',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ids, status }),
      isBase64Encoded: false,
      requestContext: {
        requestId: randomUUID(),
        http: { method: 'POST', path: '/api/admin/applications/status' },
        authorizer: {
          jwt: { claims: { sub: 'local-admin', email: 'admin@example.com', 'cognito:groups': '[admin]' }, scopes: [] },
        },
      },
    } as unknown as APIGatewayProxyEventV2WithJWTAuthorizer;
    return (await handler(
      event,
      localLambdaContext('applications-status', 10_000),
    )) as APIGatewayProxyStructuredResultV2;
  }

  it('queues nothing when the stage turns notices off', async () => {
    const { id, phone } = (await seed(1))[0]!;
    vi.resetModules();
    process.env.DECISION_NOTICES_ENABLED = 'false';
    try {
      const { handler } = await import('../../lambdas/handlers/applications-status');
      const response = await invoke(handler as never, [id], 'approved');
      expect(response.statusCode).toBe(200);
      expect(queueIdle()).toBe(true);
    } finally {
      process.env.DECISION_NOTICES_ENABLED = 'true';
    }
    await new Promise((resolve) => setTimeout(resolve, QUIET_SECONDS * 1000 + 200));
    expect(noticesTo([phone])).toEqual([]);
    const detail = await api(`/api/admin/applications/${id}`);
    expect(detail.body).toMatchObject({ application: { application_status: 'approved' }, notices: [] });
  });

  it('keeps the status change when the queue refuses the notice', async () => {
    const { id, phone } = (await seed(1))[0]!;
    const { makeHandler } = await import('../../lambdas/handlers/applications-status');
    const client = db();
    const handler = makeHandler({
      review: makeReviewStore(client, { applications: stack.tableNames.applications, audit: stack.tableNames.audit }),
      clock: () => new Date(),
      notices: {
        enabled: true,
        quietSeconds: QUIET_SECONDS,
        // A queue that does not exist: SendMessageBatch fails.
        queue: makeSqsOutboundQueue(
          makeSqsClient({ APP_MODE: 'local', AWS_REGION: 'ap-south-1', OUTBOUND_QUEUE_URL: stack.outboundQueueUrl }),
          `${stack.outboundQueueUrl}-missing`,
        ),
      },
    });
    const response = await invoke(handler as never, [id], 'approved');
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(String(response.body))).toEqual({ changed: [id], unchanged: [], notFound: [], notDone: [] });
    expect((await api(`/api/admin/applications/${id}`)).body).toMatchObject({
      application: { application_status: 'approved' },
    });
    expect(queueIdle()).toBe(true);
    expect(noticesTo([phone])).toEqual([]);
  });
});
