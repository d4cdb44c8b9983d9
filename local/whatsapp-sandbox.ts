// A stand-in for the WhatsApp Cloud API (graph.facebook.com /{version}/{phone-number-id}/messages):
// same request validation order, same success and error bodies, so that the message
// gateway adapter runs unchanged against it. Accepted messages are kept in memory for
// tests and for the local "inbox" (read the OTP without a phone). Like Meta, it enforces
// the number's throughput, the messaging tier's unique recipients and the pair rate
// (whatsapp-limits.ts), and reports each message's fate by signed status callbacks
// (whatsapp-status-webhook.ts).
import { LaterWork, type MessageSandbox, sandboxControls } from './message-sandbox';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { FaultPlan, randomId, readJson, requestUrl, sendJson, startServer } from './http-util';
import { invalidParameter, type MetaError, metaErrors, sendMetaError, unknownObject } from './whatsapp-errors';
import { defaultTier, type LimitRefusal, type TierSettings, WhatsAppLimits } from './whatsapp-limits';
import { type Business, postStatus, type StatusWebhookTarget, type WhatsAppStatus } from './whatsapp-status-webhook';
import {
  checkTemplate,
  type DecisionTemplates,
  type KnownTemplates,
  messageSchema,
  record,
  type SandboxMessage,
  type SandboxMessageKind,
  type GrievanceTemplate,
  type WithdrawalTemplate,
} from './whatsapp-messages';

export type { SandboxMessage } from './whatsapp-messages';

export const sandboxFaultModes = [
  'http500',
  'timeout',
  'recipient',
  'phone-number-id',
  'throughput',
  'spam-limit',
  'pair-limit',
  'account-blocked',
  'account-locked',
  'never-deliver',
  'recipient-async',
] as const;
type SandboxFaultMode = (typeof sandboxFaultModes)[number];

/** What each refusing mode answers (the others: http500, timeout, phone-number-id, never-deliver, recipient-async). */
const refusals: Partial<Record<SandboxFaultMode, MetaError>> = {
  http500: metaErrors.somethingWentWrong,
  recipient: metaErrors.undeliverable,
  throughput: metaErrors.throughput,
  'spam-limit': metaErrors.spamLimit,
  'pair-limit': metaErrors.pairLimit,
  'account-blocked': metaErrors.accountBlocked,
  'account-locked': metaErrors.accountLocked,
};

const limitErrors: Record<LimitRefusal, MetaError> = {
  throughput: metaErrors.throughput,
  tier: metaErrors.tierLimit,
  pair: metaErrors.pairLimit,
};

/** One status callback the sandbox tried to post. */
interface StatusCallbackAttempt {
  readonly messageId: string;
  readonly status: WhatsAppStatus;
  /** The webhook's HTTP status, or `error` when the POST failed. */
  readonly result: number | 'error';
  readonly at: string;
}

export interface WhatsAppSandboxOptions {
  port: number;
  accessToken: string;
  phoneNumberId: string;
  /** Name of the authentication (OTP) template. Default `auth2`. */
  authTemplate?: string;
  /** Name of the welcome template. Default `welcome_message`. */
  welcomeTemplate?: string;
  /** The decision-notice utility templates (body parameters allowed). */
  decisionTemplates?: DecisionTemplates;
  /** The withdrawal confirmation's utility template (no parameters). */
  withdrawalTemplate?: WithdrawalTemplate;
  /** A grievance answer's utility template (two body parameters: the reference and the answer). */
  grievanceTemplate?: GrievanceTemplate;
  /** Where status callbacks go; none: statuses change in the outbox only. `setWebhook` changes it. */
  webhook?: StatusWebhookTarget;
  /** `delivered` follows `sent` after this long. Default 200 ms. */
  deliveredAfterMs?: number;
  /** `read` follows `delivered` after this long; default: never read. */
  readAfterMs?: number;
  /** Limits at start (and after reset). Default: no tier cap, 80 per second, pair burst 45 then 1 per 6 s. */
  tier?: Partial<TierSettings>;
  /** Shown in callbacks' metadata. */
  displayPhoneNumber?: string;
  wabaId?: string;
  /** The clock (the local stack's moved clock; tests). */
  now?: () => number;
  log?: (line: string) => void;
}

export interface WhatsAppSandbox extends MessageSandbox<SandboxMessage, SandboxFaultMode> {
  /** Changes the limits; `uniqueRecipientsPer24h: null` lifts the tier cap. */
  setTier(settings: Partial<TierSettings>): TierSettings;
  /** The tier's settings and the unique recipients of the last 24 hours. */
  tier(): TierSettings & { uniqueRecipients: number };
  /** Where status callbacks go from now on (undefined: nowhere). */
  setWebhook(target: StatusWebhookTarget | undefined): void;
  /** The status callbacks tried, oldest first. */
  callbacks(): StatusCallbackAttempt[];
  /** How long each send held by the `timeout` fault waited before its caller gave up (ms), oldest first. */
  hangs(): number[];
}

const controlFailSchema = z.object({
  times: z.number().int().min(1).max(10_000).default(1),
  mode: z.enum(sandboxFaultModes),
});

export const controlTierSchema = z
  .object({
    uniqueRecipientsPer24h: z.number().int().min(1).nullable().optional(),
    messagesPerSecond: z.number().int().min(1).max(10_000).optional(),
  })
  .strict()
  .refine((tier) => tier.uniqueRecipientsPer24h !== undefined || tier.messagesPerSecond !== undefined, {
    message: 'give uniqueRecipientsPer24h (a number or null) and/or messagesPerSecond',
  });

/** Pricing category of a template, for the callbacks' `pricing`. */
const categories: Partial<Record<SandboxMessageKind, string>> = {
  otp: 'authentication',
  welcome: 'utility',
  decision: 'utility',
  withdrawn: 'utility',
  grievance: 'utility',
  template: 'utility',
};

const sendPath = /^\/v\d+\.\d+\/([^/]+)\/messages\/?$/;

export async function startWhatsAppSandbox(options: WhatsAppSandboxOptions): Promise<WhatsAppSandbox> {
  const authTemplate = options.authTemplate ?? 'auth2';
  const welcomeTemplate = options.welcomeTemplate ?? 'welcome_message';
  const known: KnownTemplates = {
    auth: authTemplate,
    welcome: welcomeTemplate,
    decisions: options.decisionTemplates,
    withdrawal: options.withdrawalTemplate,
    grievance: options.grievanceTemplate,
  };
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => undefined);
  const deliveredAfterMs = options.deliveredAfterMs ?? 200;
  const business: Business = {
    wabaId: options.wabaId ?? '100000000000002',
    phoneNumberId: options.phoneNumberId,
    displayPhoneNumber: options.displayPhoneNumber ?? '919000000001',
  };
  const limits = new WhatsAppLimits({ ...defaultTier, ...options.tier }, now);
  let webhook = options.webhook;
  let recorded: SandboxMessage[] = [];
  let attempts: StatusCallbackAttempt[] = [];
  let generation = 0;
  const faults = new FaultPlan<SandboxFaultMode>();
  let hung: number[] = [];
  const fail = sendMetaError;

  const later = new LaterWork();

  /** Records the status (callbacks go out in Meta's order) and posts the callback. */
  const report = (message: SandboxMessage, status: WhatsAppStatus, error?: MetaError) => {
    recorded = recorded.map((m) =>
      m.id === message.id ? { ...m, status, ...(error && { errorCode: error.code }) } : m,
    );
    const target = webhook;
    if (!target) return;
    // A POST still under way when the sandbox is reset must not land in the new list.
    const started = generation;
    const note = (result: number | 'error') => {
      if (started === generation)
        attempts.push({ messageId: message.id, status, result, at: new Date().toISOString() });
    };
    const update = {
      messageId: message.id,
      status,
      recipientId: message.to,
      at: now(),
      ...(categories[message.kind] && { category: categories[message.kind] }),
      ...(error && { error }),
    };
    postStatus(target, business, update)
      .then((result) => {
        note(result);
        if (result >= 300) log(`whatsapp sandbox: status callback ${status} answered ${result}`);
      })
      .catch((failure: unknown) => {
        note('error');
        log(`whatsapp sandbox: status callback ${status} failed: ${failure instanceof Error ? failure.name : 'error'}`);
      });
  };

  /** The callbacks of an accepted message: sent, then delivered (and read), or as the fault says. */
  const schedule = (message: SandboxMessage, fate: 'deliver' | 'never-deliver' | 'recipient-async') => {
    if (fate === 'recipient-async') {
      later.run(deliveredAfterMs, () => report(message, 'failed', metaErrors.undeliverable));
      return;
    }
    later.run(0, () => report(message, 'sent'));
    if (fate === 'never-deliver') return;
    later.run(deliveredAfterMs, () => report(message, 'delivered'));
    const readAfterMs = options.readAfterMs;
    if (readAfterMs !== undefined) later.run(deliveredAfterMs + readAfterMs, () => report(message, 'read'));
  };

  const handleSend = async (req: IncomingMessage, res: ServerResponse, phoneNumberId: string): Promise<void> => {
    const auth = req.headers.authorization ?? '';
    const token = /^Bearer\s+(.+)$/i.exec(auth)?.[1]?.trim();
    if (!token) {
      return fail(res, {
        status: 401,
        message: 'An active access token must be used to query information about the current user.',
        type: 'OAuthException',
        code: 190,
      });
    }
    if (token !== options.accessToken) {
      return fail(res, {
        status: 401,
        message: 'Invalid OAuth access token - Cannot parse access token',
        type: 'OAuthException',
        code: 190,
      });
    }
    if (phoneNumberId !== options.phoneNumberId) return fail(res, unknownObject(phoneNumberId));

    const body = await readJson(req);
    if (!body.ok) return fail(res, invalidParameter(body.reason));
    const parsed = messageSchema.safeParse(body.value);
    if (!parsed.success) {
      const details = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`);
      return fail(res, invalidParameter(details.join('; ')));
    }
    const message = parsed.data;
    const templateProblem = checkTemplate(message, known);
    if (templateProblem) return fail(res, templateProblem);

    const mode = faults.take();
    if (mode === 'timeout') {
      // Never answer: the caller's own timeout has to fire (close() drops the socket). How
      // long the caller waited is what its time budget gave WhatsApp.
      const heldFrom = Date.now();
      res.on('close', () => hung.push(Date.now() - heldFrom));
      return;
    }
    if (mode === 'phone-number-id') return fail(res, unknownObject(phoneNumberId));
    const refusal = mode && refusals[mode];
    if (refusal) return fail(res, refusal);

    // Business-initiated messages (templates) count against the tier; a text only answers a user.
    const businessInitiated = message.type === 'template';
    const limited = mode ? undefined : limits.check(phoneNumberId, message.to, businessInitiated);
    if (limited) return fail(res, limitErrors[limited]);
    limits.record(phoneNumberId, message.to, businessInitiated);

    const id = `wamid.${randomId(24)}`;
    const accepted = record(id, message, known, now());
    recorded.unshift(accepted);
    sendJson(res, 200, {
      messaging_product: 'whatsapp',
      contacts: [{ input: message.to, wa_id: message.to }],
      messages: [{ id, ...(message.type === 'template' && { message_status: 'accepted' }) }],
    });
    schedule(accepted, mode === 'never-deliver' || mode === 'recipient-async' ? mode : 'deliver');
  };

  const handleControl = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    if (req.method === 'GET' && path === '/__sandbox/messages') {
      const to = requestUrl(req).searchParams.get('to');
      return sendJson(res, 200, { messages: to ? recorded.filter((m) => m.to === to) : recorded });
    }
    if (req.method === 'POST' && path === '/__sandbox/reset') {
      controls.reset();
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === 'POST' && path === '/__sandbox/fail') {
      const body = await readJson(req);
      const parsed = controlFailSchema.safeParse(body.ok ? body.value : undefined);
      if (!parsed.success) return sendJson(res, 400, { error: { message: z.prettifyError(parsed.error) } });
      faults.arm(parsed.data.times, parsed.data.mode);
      return sendJson(res, 200, { ok: true, ...parsed.data });
    }
    if (req.method === 'POST' && path === '/__sandbox/tier') {
      const body = await readJson(req);
      const parsed = controlTierSchema.safeParse(body.ok ? body.value : undefined);
      if (!parsed.success) return sendJson(res, 400, { error: { message: z.prettifyError(parsed.error) } });
      limits.set(parsed.data);
      return sendJson(res, 200, { ok: true, ...limits.current });
    }
    sendJson(res, 404, { error: { message: `no control route ${req.method} ${path}` } });
  };

  const server = await startServer(options.port, async (req, res) => {
    const path = requestUrl(req).pathname;
    if (path.startsWith('/__sandbox/')) return handleControl(req, res, path);
    const match = sendPath.exec(path);
    if (req.method === 'POST' && match?.[1]) return handleSend(req, res, decodeURIComponent(match[1]));
    fail(res, {
      status: 400,
      message: `Unknown path components: ${path}`,
      type: 'OAuthException',
      code: 2500,
    });
  });

  const controls = sandboxControls(server, {
    recorded: () => recorded,
    clear: () => {
      recorded = [];
      hung = [];
      attempts = [];
      generation += 1;
      later.cancel();
    },
    faults,
    resetRest: () => limits.reset(),
  });

  return {
    ...controls,
    setTier: (settings) => {
      limits.set(settings);
      return limits.current;
    },
    tier: () => ({ ...limits.current, uniqueRecipients: limits.uniqueRecipients() }),
    setWebhook: (target) => {
      webhook = target;
    },
    callbacks: () => [...attempts],
    hangs: () => [...hung],
  };
}
