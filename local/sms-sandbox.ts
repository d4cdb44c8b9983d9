// A stand-in for AWS End User Messaging SMS (API `PinpointSMSVoiceV2`, AWS JSON 1.0): the
// functions' lambdas/adapters/sms.ts (over lambdas/lib/aws-json.ts) and the real SDK client
// (`@aws-sdk/client-pinpoint-sms-voice-v2`) with `endpoint` set here send SendTextMessage
// unchanged and get AWS's answers and exceptions back. It checks what India's DLT rules
// need, records each message for the local outbox, hands the delivery events to a callback
// as the configuration set's SNS event destination would, and can be told to fail.
//
// The wire format is the SDK's own (node_modules/@aws-sdk/core, AwsJsonRpcProtocol):
// POST / with `content-type: application/x-amz-json-1.0` and
// `x-amz-target: PinpointSMSVoiceV2.SendTextMessage`; errors are HTTP 4xx/5xx with
// `{ "__type": "<namespace>#<Exception>", "Message": ... }`, and the SDK reads the name
// from `__type` first, then `code`, then the `x-amzn-errortype` header: we send both.
import { LaterWork, type MessageSandbox, sandboxControls } from './message-sandbox';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { FaultPlan, readBody, sendJson, startServer } from './http-util';

export const smsFaultModes = [
  'throttled',
  'quota',
  'blocked',
  'unreachable',
  'never-deliver',
  'http500',
  'timeout',
] as const;
type SmsFaultMode = (typeof smsFaultModes)[number];

type SmsStatus = 'accepted' | 'sent' | 'delivered' | 'failed';

/** A DLT template as registered: `{#var#}` stands for 1 to 30 characters. */
export interface SmsTemplateRegistration {
  readonly templateId: string;
  readonly text: string;
  /** What the outbox calls a message of this template when it holds no code (e.g. `decision`). */
  readonly kind?: string;
}

export interface SmsSandboxMessage {
  /** The MessageId returned to the caller. */
  readonly id: string;
  readonly channel: 'sms';
  /** The recipient, 91-prefixed digits (as the WhatsApp sandbox records it). */
  readonly to: string;
  /** `otp` when the body holds a 6-digit code, else the template's kind, else `text`. */
  readonly kind: string;
  readonly code?: string;
  readonly body: string;
  readonly templateId: string;
  /** The template id again, under the name the outbox uses for both channels. */
  readonly template: string;
  readonly status: SmsStatus;
  /** The event type of the last event sent (TEXT_DELIVERED, TEXT_BLOCKED, ...). */
  readonly lastEvent?: string;
  /** ISO time of acceptance. */
  readonly at: string;
}

/**
 * One SMS event as AWS End User Messaging SMS publishes it to an event destination (here
 * an SNS topic; the SNS message is this JSON). Shape from "Example AWS End User Messaging
 * SMS event data" (docs.aws.amazon.com/sms-voice/latest/userguide/configuration-sets-event-format.html,
 * and the EventBridge "Text Message Delivery Status Updated" detail, which is the same
 * object). The documented example has no configuration set name or origination identity
 * field: the sender id travels in `originationPhoneNumber` (as in the EventBridge example,
 * where it holds a sender id), and `context` echoes SendTextMessage's `Context`.
 */
export interface SmsDeliveryEvent {
  eventType: string;
  eventVersion: '1.0';
  /** Unix time in milliseconds. */
  eventTimestamp: number;
  isFinal: boolean;
  originationPhoneNumber: string;
  destinationPhoneNumber: string;
  isoCountryCode: string;
  isInternationalSend: boolean;
  mcc: string;
  mnc: string;
  carrierName: string;
  messageId: string;
  messageRequestTimestamp: number;
  /** GSM for GSM 03.38 text, else UCS2 (the Tamil templates). */
  messageEncoding: 'GSM' | 'UCS2';
  messageType: 'TRANSACTIONAL' | 'PROMOTIONAL';
  messageStatus: string;
  messageStatusDescription: string;
  context: Record<string, string>;
  totalMessageParts: number;
  totalMessagePrice: number;
  totalCarrierFee: number;
}

export interface SmsSandboxOptions {
  port: number;
  /** The registered sender id (DLT header): the only OriginationIdentity accepted. */
  originationIdentity: string;
  /** The only ConfigurationSetName accepted. */
  configurationSetName: string;
  /** The DLT principal entity id: IN_ENTITY_ID must equal it. */
  entityId: string;
  templates: readonly SmsTemplateRegistration[];
  /**
   * SendTextMessage calls accepted per second (sliding window); beyond it ThrottlingException.
   * Default 20. AWS has two limits here: the API's requests-per-second quota per action
   * (docs.aws.amazon.com/sms-voice/latest/userguide/quotas.html) and the message parts per
   * second of the origination identity for the destination country
   * (.../sms-limitations-mps.html; for sender ids it "varies by country"). The default is the
   * project's own account rate (SMS_MESSAGES_PER_SECOND in lambdas/lib/env.ts), so the
   * sandbox refuses exactly what the consumer's pacing is meant to avoid. AWS counts message
   * parts (a Tamil OTP is two); the sandbox counts calls, as the consumer does.
   */
  messagesPerSecond?: number;
  /**
   * DLT's CTA whitelist (TRAI's direction of 13 August 2024, in force for URLs from 1 October 2024:
   * docs/MESSAGING.md): a URL in a body must equal a static entry or start with a dynamic
   * one (which ends with `?`), else the operator's scrubbing blocks the message (accepted by
   * AWS, then TEXT_BLOCKED). Default: none whitelisted, so any URL is blocked.
   */
  whitelistedUrls?: readonly string[];
  /** Delay before the first delivery event (the second follows after as long again). Default 300 ms. */
  eventDelayMs?: number;
  /** Receives each delivery event; errors are logged and dropped (as SNS drops after its retries). */
  onEvent?: (event: SmsDeliveryEvent) => void | Promise<void>;
  /** The clock (tests and the local stack's moved clock). */
  now?: () => number;
  log?: (line: string) => void;
}

export interface SmsSandbox extends MessageSandbox<SmsSandboxMessage, SmsFaultMode> {
  /** Changes the account rate (calls per second). */
  setRate(messagesPerSecond: number): void;
  /** Replaces the event callback (the local stack sets it once the consumer can run). */
  setEventHandler(onEvent: SmsSandboxOptions['onEvent']): void;
}

const namespace = 'com.amazonaws.pinpointsmsvoicev2';
const operationTarget = 'PinpointSMSVoiceV2.SendTextMessage';

/** The request members we read; others are accepted and ignored, as AWS ignores none but we need none. */
const sendTextMessageSchema = z.object({
  DestinationPhoneNumber: z.string().optional(),
  OriginationIdentity: z.string().optional(),
  MessageBody: z.string().optional(),
  MessageType: z.string().optional(),
  ConfigurationSetName: z.string().optional(),
  DestinationCountryParameters: z.record(z.string(), z.string()).optional(),
  Context: z.record(z.string(), z.string()).optional(),
  DryRun: z.boolean().optional(),
});

interface AwsError {
  status: number;
  type: string;
  body: Record<string, unknown>;
}

const validation = (reason: string, message: string, field?: string): AwsError => ({
  status: 400,
  type: 'ValidationException',
  body: { Message: message, Reason: reason, ...(field && { Fields: [{ Name: field, Message: message }] }) },
});

const notFound = (resourceType: string, resourceId: string): AwsError => ({
  status: 400,
  type: 'ResourceNotFoundException',
  body: { Message: `Resource not found: ${resourceId}`, ResourceType: resourceType, ResourceId: resourceId },
});

/** GSM 03.38 basic set and extension table; anything else makes the message UCS-2. */
const gsmCharacters = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà^{}\\[~]|€',
);

/** Encoding and parts as carriers split them: GSM 160 (153 per part), UCS-2 70 (67 per part). */
export function smsParts(body: string): { encoding: 'GSM' | 'UCS2'; parts: number } {
  const chars = [...body];
  const gsm = chars.every((c) => gsmCharacters.has(c));
  const [single, multi] = gsm ? [160, 153] : [70, 67];
  const length = gsm ? chars.reduce((n, c) => n + ('^{}\\[~]|€'.includes(c) ? 2 : 1), 0) : body.length;
  return { encoding: gsm ? 'GSM' : 'UCS2', parts: length <= single ? 1 : Math.ceil(length / multi) };
}

// Only the syntax characters: the `u` flag refuses needless escapes such as `\-`.
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Whether every URL in `body` is on DLT's CTA whitelist: a static entry exactly, or a dynamic one (`…?`) as its start. */
export function urlsWhitelisted(body: string, whitelist: readonly string[]): boolean {
  const urls = body.match(/(?:https?:\/\/|www\.)\S+/gi) ?? [];
  return urls.every((url) =>
    whitelist.some((entry) =>
      entry.endsWith('?') ? url.startsWith(entry) && url.length > entry.length : url === entry,
    ),
  );
}

/** A registered template as a pattern: literal text, each `{#var#}` 1 to 30 characters. */
function templatePattern(text: string): RegExp {
  const source = text.split('{#var#}').map(escapeRegExp).join('([\\s\\S]{1,30}?)');
  return new RegExp(`^${source}$`, 'u');
}

/** The variables of `body` under `template`, or undefined when the body does not match it. */
export function matchTemplate(template: string, body: string): string[] | undefined {
  const match = templatePattern(template).exec(body);
  return match ? match.slice(1).map((v) => v ?? '') : undefined;
}

export async function startSmsSandbox(options: SmsSandboxOptions): Promise<SmsSandbox> {
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => undefined);
  const eventDelayMs = options.eventDelayMs ?? 300;
  const templates = new Map(options.templates.map((t) => [t.templateId, t]));
  let messagesPerSecond = options.messagesPerSecond ?? 20;
  let onEvent = options.onEvent;
  let recorded: SmsSandboxMessage[] = [];
  let window: number[] = [];
  const faults = new FaultPlan<SmsFaultMode>();

  const fail = (res: ServerResponse, error: AwsError): void => {
    sendJson(
      res,
      error.status,
      { __type: `${namespace}#${error.type}`, ...error.body },
      {
        'x-amzn-errortype': `${error.type}:http://internal.amazon.com/coral/${namespace}/`,
        'x-amzn-requestid': randomUUID(),
      },
    );
  };

  const setStatus = (id: string, status: SmsStatus, lastEvent: string) => {
    recorded = recorded.map((m) => (m.id === id ? { ...m, status, lastEvent } : m));
  };

  const later = new LaterWork();

  const emit = (message: SmsSandboxMessage, requestedAt: number, context: Record<string, string>, outcome: Outcome) => {
    const { encoding, parts } = smsParts(message.body);
    const event: SmsDeliveryEvent = {
      eventType: outcome.eventType,
      eventVersion: '1.0',
      eventTimestamp: now(),
      isFinal: outcome.isFinal,
      originationPhoneNumber: options.originationIdentity,
      destinationPhoneNumber: `+${message.to}`,
      isoCountryCode: 'IN',
      isInternationalSend: false,
      mcc: '404',
      mnc: '45',
      carrierName: 'Local Carrier',
      messageId: message.id,
      messageRequestTimestamp: requestedAt,
      messageEncoding: encoding,
      messageType: 'TRANSACTIONAL',
      messageStatus: outcome.messageStatus,
      messageStatusDescription: outcome.description,
      context,
      totalMessageParts: parts,
      totalMessagePrice: 0.00254 * parts,
      totalCarrierFee: 0,
    };
    setStatus(message.id, outcome.status, outcome.eventType);
    if (!onEvent) return;
    Promise.resolve()
      .then(() => onEvent?.(event))
      .catch((error: unknown) =>
        log(`sms sandbox: event ${event.eventType} not handled: ${error instanceof Error ? error.name : 'error'}`),
      );
  };

  const handleSend = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let text: string;
    try {
      text = await readBody(req);
    } catch {
      return fail(res, validation('CANNOT_PARSE', 'Request body too large'));
    }
    let json: unknown;
    try {
      json = text.trim() === '' ? {} : JSON.parse(text);
    } catch {
      return fail(res, {
        status: 400,
        type: 'SerializationException',
        body: { Message: 'Could not parse the request body' },
      });
    }
    const parsed = sendTextMessageSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return fail(
        res,
        validation('CANNOT_PARSE', `Invalid value at '${issue?.path.join('.') ?? ''}'`, String(issue?.path[0] ?? '')),
      );
    }
    const input = parsed.data;
    const checked = checkRequest(input, options, templates);
    if ('error' in checked) return fail(res, checked.error);
    const { to, template, variables } = checked;

    switch (faults.take()) {
      case 'throttled':
        return fail(res, { status: 400, type: 'ThrottlingException', body: { Message: 'Rate exceeded' } });
      case 'quota':
        return fail(res, {
          status: 400,
          type: 'ServiceQuotaExceededException',
          body: {
            Message: 'Monthly spend limit reached for text messages',
            Reason: 'MONTHLY_SPEND_LIMIT_REACHED_FOR_TEXT',
          },
        });
      case 'http500':
        return fail(res, {
          status: 500,
          type: 'InternalServerException',
          body: { Message: 'Internal server error', RequestId: randomUUID() },
        });
      case 'timeout':
        // Never answer: the caller's own timeout has to fire. close() drops the socket.
        return;
      case 'blocked':
        return accept(res, input, to, template, variables, 'blocked');
      case 'unreachable':
        return accept(res, input, to, template, variables, 'unreachable');
      case 'never-deliver':
        return accept(res, input, to, template, variables, 'never-deliver');
      case undefined:
        break;
    }

    if (!urlsWhitelisted(input.MessageBody ?? '', options.whitelistedUrls ?? [])) {
      return accept(res, input, to, template, variables, 'blocked');
    }
    const t = now();
    // A clock moved back (POST /dev/clock) leaves sends "in the future": they no longer count.
    window = window.filter((at) => at <= t && t - at < 1000);
    if (window.length >= messagesPerSecond) {
      return fail(res, { status: 400, type: 'ThrottlingException', body: { Message: 'Rate exceeded' } });
    }
    accept(res, input, to, template, variables, 'deliver');
  };

  const accept = (
    res: ServerResponse,
    input: SendTextMessageInput,
    to: string,
    template: SmsTemplateRegistration,
    variables: readonly string[],
    fate: 'deliver' | 'blocked' | 'unreachable' | 'never-deliver',
  ): void => {
    const id = randomUUID();
    const requestedAt = now();
    window.push(requestedAt);
    if (input.DryRun) return sendJson(res, 200, { MessageId: id });
    const code = variables.find((v) => /^\d{6}$/.test(v));
    const message: SmsSandboxMessage = {
      id,
      channel: 'sms',
      to,
      kind: code ? 'otp' : (template.kind ?? 'text'),
      ...(code && { code }),
      body: input.MessageBody ?? '',
      templateId: template.templateId,
      template: template.templateId,
      status: 'accepted',
      at: new Date(requestedAt).toISOString(),
    };
    recorded.unshift(message);
    sendJson(res, 200, { MessageId: id }, { 'x-amzn-requestid': randomUUID() });

    const context = input.Context ?? {};
    const outcomes = fateOutcomes[fate];
    outcomes.forEach((outcome, i) =>
      later.run(eventDelayMs * (i + 1), () => emit(message, requestedAt, context, outcome)),
    );
  };

  const server = await startServer(options.port, async (req, res) => {
    if (req.method !== 'POST') {
      return fail(res, { status: 400, type: 'UnknownOperationException', body: { Message: 'Unknown operation' } });
    }
    if (!/^AWS4-HMAC-SHA256 /.test(req.headers.authorization ?? '')) {
      return fail(res, {
        status: 400,
        type: 'MissingAuthenticationTokenException',
        body: { Message: 'Missing Authentication Token' },
      });
    }
    const target = req.headers['x-amz-target'];
    if (target !== operationTarget) {
      return fail(res, {
        status: 400,
        type: 'UnknownOperationException',
        body: { Message: `Unknown operation ${String(target)}` },
      });
    }
    if (!/^application\/x-amz-json-1\.0/.test(req.headers['content-type'] ?? '')) {
      return fail(res, { status: 400, type: 'SerializationException', body: { Message: 'Unsupported content type' } });
    }
    return handleSend(req, res);
  });

  return {
    ...sandboxControls(server, {
      recorded: () => recorded,
      clear: () => {
        recorded = [];
        later.cancel();
      },
      faults,
      resetRest: () => {
        window = [];
        messagesPerSecond = options.messagesPerSecond ?? 20;
      },
    }),
    setRate: (rate) => {
      messagesPerSecond = rate;
    },
    setEventHandler: (handler) => {
      onEvent = handler;
    },
  };
}

type SendTextMessageInput = z.infer<typeof sendTextMessageSchema>;

interface Outcome {
  eventType: string;
  messageStatus: string;
  description: string;
  isFinal: boolean;
  status: SmsStatus;
}

// Event types from "Event types for SMS, MMS, and voice"
// (docs.aws.amazon.com/sms-voice/latest/userguide/configuration-sets-event-types.html);
// `messageStatus` is the event type without its TEXT_ prefix, as in the documented example
// (TEXT_SUCCESSFUL / SUCCESSFUL, "Message has been accepted by phone carrier"). The other
// descriptions are ours, after that page's wording.
const fateOutcomes: Record<'deliver' | 'blocked' | 'unreachable' | 'never-deliver', readonly Outcome[]> = {
  deliver: [
    {
      eventType: 'TEXT_SUCCESSFUL',
      messageStatus: 'SUCCESSFUL',
      description: 'Message has been accepted by phone carrier',
      isFinal: false,
      status: 'sent',
    },
    {
      eventType: 'TEXT_DELIVERED',
      messageStatus: 'DELIVERED',
      description: "Message has been delivered to the recipient's device",
      isFinal: true,
      status: 'delivered',
    },
  ],
  blocked: [
    {
      eventType: 'TEXT_BLOCKED',
      messageStatus: 'BLOCKED',
      description: "The recipient's device or carrier is blocking messages to this recipient",
      isFinal: true,
      status: 'failed',
    },
  ],
  unreachable: [
    {
      eventType: 'TEXT_UNREACHABLE',
      messageStatus: 'UNREACHABLE',
      description: "The recipient's device is not connected to the network or is turned off",
      isFinal: true,
      status: 'failed',
    },
  ],
  // Accepted, and then nothing: what a carrier that never reports looks like for up to 72 hours.
  'never-deliver': [],
};

/** The first thing AWS (or DLT scrubbing, made loud here) would refuse, else what the message is. */
function checkRequest(
  input: SendTextMessageInput,
  options: SmsSandboxOptions,
  templates: ReadonlyMap<string, SmsTemplateRegistration>,
): { error: AwsError } | { to: string; template: SmsTemplateRegistration; variables: string[] } {
  const missing = (
    ['DestinationPhoneNumber', 'OriginationIdentity', 'MessageBody', 'MessageType', 'ConfigurationSetName'] as const
  ).find((name) => input[name] === undefined || input[name] === '');
  if (missing) return { error: validation('MISSING_PARAMETER', `${missing} is required`, missing) };
  const to = input.DestinationPhoneNumber ?? '';
  if (!/^\+[1-9]\d{1,18}$/.test(to)) {
    return {
      error: validation(
        'FIELD_VALIDATION_FAILED',
        `Value at 'destinationPhoneNumber' failed to satisfy constraint: Member must satisfy regular expression pattern: ^\\+?[1-9][0-9]{1,18}$`,
        'DestinationPhoneNumber',
      ),
    };
  }
  // This account sends to India only (TRAI DLT parameters below); +91 and ten digits.
  if (!/^\+91\d{10}$/.test(to)) {
    return {
      error: validation(
        'COUNTRY_NOT_ENABLED',
        'The destination country is not enabled for this account',
        'DestinationPhoneNumber',
      ),
    };
  }
  if (input.OriginationIdentity !== options.originationIdentity) {
    return { error: notFound('sender-id', input.OriginationIdentity ?? '') };
  }
  if (input.ConfigurationSetName !== options.configurationSetName) {
    return { error: notFound('configuration-set', input.ConfigurationSetName ?? '') };
  }
  if (input.MessageType !== 'TRANSACTIONAL') {
    // DLT: a code is a service-implicit (transactional) message; the sandbox takes nothing else.
    return {
      error: validation('INVALID_PARAMETER', 'MessageType must be TRANSACTIONAL for this sender id', 'MessageType'),
    };
  }
  const body = input.MessageBody ?? '';
  if (body.length > 1600) {
    return {
      error: validation(
        'FIELD_VALIDATION_FAILED',
        "Value at 'messageBody' failed to satisfy constraint: Member must have length less than or equal to 1600",
        'MessageBody',
      ),
    };
  }
  const country = input.DestinationCountryParameters ?? {};
  if (!country.IN_ENTITY_ID || !country.IN_TEMPLATE_ID) {
    return {
      error: validation(
        'MISSING_PARAMETER',
        'DestinationCountryParameters IN_ENTITY_ID and IN_TEMPLATE_ID are required for India',
        'DestinationCountryParameters',
      ),
    };
  }
  if (country.IN_ENTITY_ID !== options.entityId) {
    return {
      error: validation(
        'INVALID_PARAMETER',
        'IN_ENTITY_ID is not the registered entity',
        'DestinationCountryParameters',
      ),
    };
  }
  const template = templates.get(country.IN_TEMPLATE_ID);
  if (!template) {
    return {
      error: validation(
        'INVALID_PARAMETER',
        'IN_TEMPLATE_ID is not a registered template',
        'DestinationCountryParameters',
      ),
    };
  }
  // In India a body that differs from its template is blocked by the operator's DLT
  // scrubbing (a TEXT_BLOCKED event later); the sandbox refuses it at once so that a
  // mismatch cannot pass unnoticed.
  const variables = matchTemplate(template.text, body);
  if (!variables) {
    return {
      error: validation('INVALID_PARAMETER', 'MessageBody does not match the registered template', 'MessageBody'),
    };
  }
  return { to: to.slice(1), template, variables };
}
