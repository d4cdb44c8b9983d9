import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import * as v from 'valibot';
import { notArray } from '../../rules/schema';
import { type DeliveryStore, makeDeliveryStore, type StatusChange } from '../adapters/deliveries';
import { makeSecretsLoader, secretsEnvSchema } from '../adapters/secrets';
import { systemClock } from '../lib/clock';
import { dbRuntime } from '../lib/db-runtime';
import { parseEnv } from '../lib/env';
import { AppError, httpHandler, json } from '../lib/http';
import { logger } from '../lib/logger';
import { countBy } from '../lib/metrics';
import { sameSecret, validMetaSignature } from '../lib/webhook-signature';
import { wiredOnFirstCall } from '../lib/wiring';

// Meta's webhook for the WhatsApp Cloud API (docs/MESSAGING.md, "WhatsApp webhook"): the
// subscription challenge (GET) and the signed status callbacks (POST). Nothing is read
// from a POST before its signature is checked. The statuses carry `recipient_id`, the
// visitor's number: it is never parsed, stored or logged, and neither is the message id
// (a `wamid.` id is the recipient's number and more, base64-encoded).

export interface WhatsAppWebhookDeps {
  readonly deliveries: () => DeliveryStore;
  readonly secrets: () => Promise<{ readonly whatsappAppSecret: string; readonly whatsappVerifyToken: string }>;
  readonly clock: () => Date;
}

const reported = ['sent', 'delivered', 'read', 'failed'] as const;
type Reported = (typeof reported)[number];

// Lenient where Meta may add fields (they are dropped), strict where a value is used.
const statusSchema = v.object({
  id: v.pipe(v.string(), v.minLength(1), v.maxLength(512)),
  status: v.pipe(v.string(), v.maxLength(64)),
  /** Epoch seconds, as a string. */
  timestamp: v.optional(
    v.union([v.pipe(v.string(), v.regex(/^\d{1,12}$/)), v.pipe(v.number(), v.safeInteger(), v.minValue(0))]),
  ),
  errors: v.optional(
    v.array(notArray(v.object({ code: v.optional(v.union([v.number(), v.pipe(v.string(), v.maxLength(64))])) }))),
  ),
});
const notificationSchema = v.object({
  object: v.optional(v.string()),
  entry: v.array(
    notArray(
      v.object({
        changes: v.optional(
          v.array(
            notArray(
              v.object({
                field: v.optional(v.string()),
                value: v.optional(notArray(v.object({ statuses: v.optional(v.array(statusSchema)) }))),
              }),
            ),
          ),
        ),
      }),
    ),
  ),
});
type StatusUpdate = v.InferOutput<typeof statusSchema>;

const textHeaders = {
  'content-type': 'text/plain; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/** Meta's challenge is a number; anything else is not echoed. */
const challengeSchema = v.pipe(v.string(), v.regex(/^[\w.~-]{1,256}$/));

/** The raw bytes Meta signed: API Gateway hands a body it does not take for text as base64. */
function rawBody(event: APIGatewayProxyEventV2): Buffer {
  if (!event.body) return Buffer.alloc(0);
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
}

function header(event: APIGatewayProxyEventV2, name: string): string | undefined {
  const headers = event.headers ?? {};
  return headers[name] ?? Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}

/** Meta's timestamp, when it is a plausible time; otherwise the time it reached us. */
function reportedAt(update: StatusUpdate, now: Date): Date {
  const seconds = Number(update.timestamp);
  if (update.timestamp === undefined || !Number.isSafeInteger(seconds) || seconds <= 0) return now;
  const at = new Date(seconds * 1000);
  return at.getTime() > now.getTime() + 86_400_000 ? now : at;
}

/** Meta's error codes are numbers (131026); a value that is not a short code is left out. */
function errorCode(update: StatusUpdate): string | undefined {
  const code = update.errors?.[0]?.code;
  if (code === undefined) return undefined;
  const text = String(code);
  return /^[\w.-]{1,32}$/.test(text) ? text : undefined;
}

const isReported = (status: string): status is Reported => (reported as readonly string[]).includes(status);

/** Writes a few at a time: a batch from Meta can hold many statuses. */
async function inBatches<T, R>(items: readonly T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) results.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return results;
}

export function makeHandler(deps: WhatsAppWebhookDeps) {
  async function challenge(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
    const query = event.queryStringParameters ?? {};
    const { whatsappVerifyToken } = await deps.secrets();
    if (query['hub.mode'] !== 'subscribe' || !sameSecret(whatsappVerifyToken, query['hub.verify_token'])) {
      logger.warn('Webhook verification refused');
      throw new AppError('FORBIDDEN');
    }
    const echoed = v.safeParse(challengeSchema, query['hub.challenge']);
    if (!echoed.success) throw new AppError('VALIDATION_FAILED', { fields: { 'hub.challenge': 'INVALID' } });
    logger.info('Webhook verified');
    return { statusCode: 200, headers: textHeaders, body: echoed.output };
  }

  async function statuses(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
    const raw = rawBody(event);
    const { whatsappAppSecret } = await deps.secrets();
    if (!validMetaSignature(whatsappAppSecret, raw, header(event, 'x-hub-signature-256'))) {
      logger.warn('Webhook signature refused', { bytes: raw.length });
      throw new AppError('WEBHOOK_SIGNATURE_INVALID');
    }
    let value: unknown;
    try {
      value = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new AppError('VALIDATION_FAILED');
    }
    const parsed = v.safeParse(notificationSchema, value);
    if (!parsed.success) throw new AppError('VALIDATION_FAILED');

    const updates = parsed.output.entry.flatMap((e) => (e.changes ?? []).flatMap((c) => c.value?.statuses ?? []));
    const known = updates.filter((u): u is StatusUpdate & { status: Reported } => isReported(u.status));
    const now = deps.clock();
    const store = deps.deliveries();
    const changes = await inBatches(known, 10, async (update): Promise<StatusChange> => {
      const code = update.status === 'failed' ? errorCode(update) : undefined;
      const change = await store.recordStatus(
        { channel: 'whatsapp', messageId: update.id },
        update.status,
        reportedAt(update, now),
        code,
      );
      // Once per message and status, however often Meta repeats it.
      if (change !== 'duplicate') {
        if (update.status === 'delivered') countBy('MessageDelivered', 'channel', 'whatsapp');
        if (update.status === 'failed') countBy('MessageFailed', 'channel_code', `whatsapp:${code ?? 'unknown'}`);
      }
      return change;
    });
    logger.info('WhatsApp statuses recorded', {
      statuses: updates.length,
      ignored: updates.length - known.length,
      changed: changes.filter((c) => c !== 'duplicate').length,
    });
    return json(200, { ok: true });
  }

  return httpHandler<APIGatewayProxyEventV2>(async (event) =>
    event.requestContext.http.method === 'GET' ? challenge(event) : statuses(event),
  );
}

export const handler = wiredOnFirstCall(() => {
  const { db, tables } = dbRuntime('deliveries');
  let deliveries: DeliveryStore | undefined;
  return makeHandler({
    // Built when a POST needs it: the same function answers the GET challenge.
    deliveries: () => (deliveries ??= makeDeliveryStore(db, tables.deliveries, systemClock())),
    secrets: makeSecretsLoader(parseEnv(secretsEnvSchema)).provider,
    clock: systemClock(),
  });
});
