// A stand-in for the WhatsApp Cloud API (graph.facebook.com /{version}/{phone-number-id}/messages):
// same request validation order, same success and error bodies, so that the message
// gateway adapter runs unchanged against it. Accepted messages are kept in memory for
// tests and for the local "inbox" (read the OTP without a phone).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { FaultPlan, randomId, readJson, requestUrl, type RunningServer, sendJson, startServer } from './http-util';

export const sandboxFaultModes = ['http500', 'timeout', 'recipient', 'phone-number-id'] as const;
export type SandboxFaultMode = (typeof sandboxFaultModes)[number];

export type SandboxMessageKind = 'otp' | 'welcome' | 'text' | 'template';

export interface SandboxMessage {
  /** The `wamid.` id returned to the caller. */
  readonly id: string;
  readonly to: string;
  readonly kind: SandboxMessageKind;
  /** OTP templates: the code in the body parameter. */
  readonly code?: string;
  readonly template?: string;
  readonly language?: string;
  /** Text messages: the text; templates: the body parameters joined by a space. */
  readonly body?: string;
  /** Welcome template: the link of the header video. */
  readonly headerVideoLink?: string;
  /** ISO time of acceptance. */
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
}

export interface WhatsAppSandbox extends RunningServer {
  /** Accepted messages, newest first. */
  messages(): SandboxMessage[];
  /** The code of the newest OTP sent to `to` (91-prefixed digits). */
  latestOtp(to: string): string | undefined;
  /** Forgets the recorded messages. */
  clear(): void;
  /** Forgets the recorded messages and any armed fault. */
  reset(): void;
  /** The next `times` otherwise valid sends fail with `mode` (default once). */
  failNext(options: { times?: number; mode: SandboxFaultMode }): void;
}

const mediaSchema = z
  .object({ link: z.url().optional(), id: z.string().optional(), filename: z.string().optional() })
  .refine((media) => media.link !== undefined || media.id !== undefined, 'a media parameter needs a link or an id');

const parameterSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string().min(1) }),
  z.object({ type: z.literal('payload'), payload: z.string().min(1) }),
  z.object({ type: z.literal('coupon_code'), coupon_code: z.string().min(1) }),
  z.object({
    type: z.literal('currency'),
    currency: z.object({ fallback_value: z.string(), code: z.string(), amount_1000: z.number() }),
  }),
  z.object({ type: z.literal('date_time'), date_time: z.object({ fallback_value: z.string() }) }),
  z.object({ type: z.literal('image'), image: mediaSchema }),
  z.object({ type: z.literal('video'), video: mediaSchema }),
  z.object({ type: z.literal('document'), document: mediaSchema }),
]);

const componentSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('header'), parameters: z.array(parameterSchema) }),
  z.object({ type: z.literal('body'), parameters: z.array(parameterSchema) }),
  z.object({
    type: z.literal('button'),
    sub_type: z.enum(['url', 'quick_reply', 'copy_code', 'flow']),
    index: z.union([z.string().regex(/^\d+$/), z.number().int().min(0)]),
    parameters: z.array(parameterSchema),
  }),
]);

const messageSchema = z.discriminatedUnion('type', [
  z.object({
    messaging_product: z.literal('whatsapp'),
    recipient_type: z.literal('individual').optional(),
    to: z.string().regex(/^\d{8,15}$/, 'to must be the recipient number in digits, with country code'),
    type: z.literal('template'),
    template: z.object({
      name: z.string().min(1),
      language: z.object({ code: z.string().min(2), policy: z.literal('deterministic').optional() }),
      components: z.array(componentSchema).optional(),
    }),
  }),
  z.object({
    messaging_product: z.literal('whatsapp'),
    recipient_type: z.literal('individual').optional(),
    to: z.string().regex(/^\d{8,15}$/, 'to must be the recipient number in digits, with country code'),
    type: z.literal('text'),
    text: z.object({ body: z.string().min(1).max(4096), preview_url: z.boolean().optional() }),
  }),
]);
type OutgoingMessage = z.infer<typeof messageSchema>;
type Component = z.infer<typeof componentSchema>;
type Parameter = z.infer<typeof parameterSchema>;

const controlFailSchema = z.object({
  times: z.number().int().min(1).max(10_000).default(1),
  mode: z.enum(sandboxFaultModes),
});

interface MetaError {
  status: number;
  message: string;
  type: string;
  code: number;
  error_subcode?: number;
  details?: string;
}

const sendPath = /^\/v\d+\.\d+\/([^/]+)\/messages\/?$/;

export async function startWhatsAppSandbox(options: WhatsAppSandboxOptions): Promise<WhatsAppSandbox> {
  const authTemplate = options.authTemplate ?? 'auth2';
  const welcomeTemplate = options.welcomeTemplate ?? 'welcome_message';
  let recorded: SandboxMessage[] = [];
  const faults = new FaultPlan<SandboxFaultMode>();

  const fail = (res: ServerResponse, error: MetaError): void => {
    sendJson(res, error.status, {
      error: {
        message: error.message,
        type: error.type,
        code: error.code,
        ...(error.error_subcode !== undefined && { error_subcode: error.error_subcode }),
        ...(error.details !== undefined && { error_data: { messaging_product: 'whatsapp', details: error.details } }),
        fbtrace_id: randomId(12),
      },
    });
  };

  const unknownObject = (id: string): MetaError => ({
    status: 400,
    message: `Unsupported post request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
    type: 'GraphMethodException',
    code: 100,
    error_subcode: 33,
  });

  const invalidParameter = (details: string): MetaError => ({
    status: 400,
    message: '(#100) Invalid parameter',
    type: 'OAuthException',
    code: 100,
    details,
  });

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
    const templateProblem = checkTemplate(message, authTemplate, welcomeTemplate);
    if (templateProblem) {
      return fail(res, {
        status: 400,
        message: '(#132000) Number of parameters does not match the expected number of params',
        type: 'OAuthException',
        code: 132000,
        details: templateProblem,
      });
    }

    switch (faults.take()) {
      case 'http500':
        return fail(res, {
          status: 500,
          message: '(#131000) Something went wrong',
          type: 'OAuthException',
          code: 131000,
          details: 'Something went wrong',
        });
      case 'timeout':
        // Never answer: the caller's own timeout has to fire. close() drops the socket.
        return;
      case 'recipient':
        return fail(res, {
          status: 400,
          message: '(#131026) Message undeliverable',
          type: 'OAuthException',
          code: 131026,
          details: 'Message undeliverable',
        });
      case 'phone-number-id':
        return fail(res, unknownObject(phoneNumberId));
      case undefined:
        break;
    }

    const id = `wamid.${randomId(24)}`;
    recorded.unshift(record(id, message, authTemplate, welcomeTemplate));
    sendJson(res, 200, {
      messaging_product: 'whatsapp',
      contacts: [{ input: message.to, wa_id: message.to }],
      messages: [{ id, ...(message.type === 'template' && { message_status: 'accepted' }) }],
    });
  };

  const handleControl = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    if (req.method === 'GET' && path === '/__sandbox/messages') {
      const to = requestUrl(req).searchParams.get('to');
      return sendJson(res, 200, { messages: to ? recorded.filter((m) => m.to === to) : recorded });
    }
    if (req.method === 'POST' && path === '/__sandbox/reset') {
      recorded = [];
      faults.clear();
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === 'POST' && path === '/__sandbox/fail') {
      const body = await readJson(req);
      const parsed = controlFailSchema.safeParse(body.ok ? body.value : undefined);
      if (!parsed.success) return sendJson(res, 400, { error: { message: z.prettifyError(parsed.error) } });
      faults.arm(parsed.data.times, parsed.data.mode);
      return sendJson(res, 200, { ok: true, ...parsed.data });
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

  return {
    ...server,
    messages: () => [...recorded],
    latestOtp: (to) => recorded.find((m) => m.kind === 'otp' && m.to === to)?.code,
    clear: () => {
      recorded = [];
    },
    reset: () => {
      recorded = [];
      faults.clear();
    },
    failNext: ({ times = 1, mode }) => faults.arm(times, mode),
  };
}

function texts(parameters: readonly Parameter[]): string[] {
  return parameters.flatMap((p) => (p.type === 'text' ? [p.text] : []));
}

function component<T extends Component['type']>(
  components: readonly Component[] | undefined,
  type: T,
): Extract<Component, { type: T }> | undefined {
  return components?.find((c): c is Extract<Component, { type: T }> => c.type === type);
}

/** What Meta would refuse for our two known templates (parameter counts), else undefined. */
function checkTemplate(message: OutgoingMessage, authTemplate: string, welcomeTemplate: string): string | undefined {
  if (message.type !== 'template') return undefined;
  const { name, components } = message.template;
  if (name === authTemplate) {
    const body = texts(component(components, 'body')?.parameters ?? []);
    if (body.length !== 1) return `template ${name}: the body takes exactly one text parameter (the code)`;
    const button = component(components, 'button');
    if (!button || button.sub_type !== 'url' || texts(button.parameters).length !== 1) {
      return `template ${name}: a url button with one text parameter (the code) is required`;
    }
  }
  if (name === welcomeTemplate) {
    const header = component(components, 'header');
    if (!header?.parameters.some((p) => p.type === 'video')) {
      return `template ${name}: the header takes one video parameter`;
    }
  }
  return undefined;
}

function record(id: string, message: OutgoingMessage, authTemplate: string, welcomeTemplate: string): SandboxMessage {
  const at = new Date().toISOString();
  if (message.type === 'text') return { id, to: message.to, kind: 'text', body: message.text.body, at };
  const { name, language, components } = message.template;
  const bodyTexts = texts(component(components, 'body')?.parameters ?? []);
  const base = {
    id,
    to: message.to,
    template: name,
    language: language.code,
    ...(bodyTexts.length > 0 && { body: bodyTexts.join(' ') }),
    at,
  };
  if (name === authTemplate) return { ...base, kind: 'otp', code: bodyTexts[0] };
  if (name === welcomeTemplate) {
    const video = component(components, 'header')?.parameters.find((p) => p.type === 'video');
    const link = video?.type === 'video' ? video.video.link : undefined;
    return { ...base, kind: 'welcome', ...(link !== undefined && { headerVideoLink: link }) };
  }
  return { ...base, kind: 'template' };
}
