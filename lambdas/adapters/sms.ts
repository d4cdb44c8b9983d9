import type { SendTextMessageCommandInput, SendTextMessageCommandOutput } from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { type AwsJsonOptions, awsJson } from '../lib/aws-json';
import type { SmsTemplate } from '../lib/env';
import { callTimeout, type CallOptions } from '../lib/time-budget';

// The SMS side of the message gateway: AWS End User Messaging SMS (SendTextMessage) with
// India's DLT parameters. TRAI's DLT rules: every commercial SMS to an Indian number
// names the registered principal entity (IN_ENTITY_ID) and a registered content
// template (IN_TEMPLATE_ID), goes from a registered header (the sender id, our
// OriginationIdentity), and its text must match the registered template, where each
// `{#var#}` stands for up to 30 characters. An OTP is TRANSACTIONAL (Service Implicit).
//
// The call is the service's AWS JSON 1.0 API (`PinpointSMSVoiceV2.SendTextMessage`) over
// lambdas/lib/aws-json.ts, not the SDK's client (issue 16: cold starts); an error's name is
// the service's exception name, as the SDK's were.

export type SmsFailure = 'not-configured' | 'throttled' | 'rejected' | 'network' | 'provider';

export class SmsError extends Error {
  constructor(
    readonly failure: SmsFailure,
    /** The service's exception name (ThrottlingException, ValidationException, ...). */
    readonly providerCode?: string,
  ) {
    super(`SMS send failed: ${failure}${providerCode ? ` (${providerCode})` : ''}`);
    this.name = 'SmsError';
  }
}

export interface SmsGateway {
  /** Sends `template` with its `{#var#}` replaced by `variables` in order; resolves with the MessageId. */
  send(to: string, template: SmsTemplate, variables: readonly string[], options?: CallOptions): Promise<string>;
}

export interface SmsConfig {
  readonly region: string;
  /** Local mode only: the SMS sandbox. */
  readonly endpoint?: string;
  readonly originationIdentity: string;
  readonly configurationSet: string;
  readonly entityId: string;
  readonly timeoutMs: number;
}

export const DLT_VARIABLE = '{#var#}';
/** DLT's length limit of one variable. */
const DLT_VARIABLE_MAX = 30;

/** The registered text with each `{#var#}` filled in order; refuses what DLT scrubbing would block. */
export function renderSmsTemplate(template: SmsTemplate, variables: readonly string[]): string {
  const parts = template.text.split(DLT_VARIABLE);
  if (parts.length - 1 !== variables.length) {
    throw new SmsError('rejected', `template ${template.templateId} takes ${parts.length - 1} variable(s)`);
  }
  if (variables.some((v) => v.length === 0 || v.length > DLT_VARIABLE_MAX)) {
    throw new SmsError('rejected', `a DLT variable holds 1 to ${DLT_VARIABLE_MAX} characters`);
  }
  return parts.reduce((text, part, i) => text + part + (variables[i] ?? ''), '');
}

const throttled = new Set(['ThrottlingException', 'ServiceQuotaExceededException']);
const rejected = new Set([
  'ValidationException',
  'ConflictException',
  'ResourceNotFoundException',
  'AccessDeniedException',
]);

function isSmsConfigured(config: Pick<SmsConfig, 'originationIdentity' | 'configurationSet' | 'entityId'>): boolean {
  return Boolean(config.originationIdentity && config.configurationSet && config.entityId);
}

/** Tests: the transport under the SMS caller (a fake fetch, fixed credentials). */
export type SmsTransport = Pick<AwsJsonOptions, 'fetch' | 'credentials'>;

const localCredentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/** Transport failures (fetch refused, aborted or timed out), as aws-json and fetch name them. */
const network = new Set(['NetworkError', 'AbortError', 'TimeoutError']);

/** The service's exception (by its name) as our failure kinds. */
function smsFailure(error: unknown): SmsError {
  const name = error instanceof Error ? error.name : '';
  if (throttled.has(name)) return new SmsError('throttled', name);
  if (rejected.has(name)) return new SmsError('rejected', name);
  if (network.has(name) || /ECONN|ETIMEDOUT|socket/i.test(String(error))) {
    return new SmsError('network', name || undefined);
  }
  return new SmsError('provider', name || undefined);
}

export function makeSmsGateway(config: SmsConfig, transport: SmsTransport = {}): SmsGateway {
  const fetchImpl = transport.fetch ?? fetch;
  /** SendTextMessage under one call's deadline: the signal aborts the request when it passes. */
  const sendTextMessage = (input: SendTextMessageCommandInput, signal: AbortSignal) =>
    awsJson({
      service: 'sms-voice',
      targetPrefix: 'PinpointSMSVoiceV2',
      jsonVersion: '1.0',
      region: config.region,
      // Local mode: the SMS sandbox (local/sms-sandbox.ts).
      ...(config.endpoint && { endpoint: config.endpoint, credentials: localCredentials }),
      ...(transport.credentials && { credentials: transport.credentials }),
      // One try: the caller decides (the OTP falls back or answers; the queue retries).
      maxAttempts: 1,
      fetch: (request, init) => fetchImpl(request, { ...init, signal }),
    })<SendTextMessageCommandOutput>('SendTextMessage', input);
  return {
    async send(to, template, variables, options) {
      if (!isSmsConfigured(config)) throw new SmsError('not-configured');
      const input: SendTextMessageCommandInput = {
        DestinationPhoneNumber: `+${to}`,
        OriginationIdentity: config.originationIdentity,
        MessageBody: renderSmsTemplate(template, variables),
        MessageType: 'TRANSACTIONAL',
        ConfigurationSetName: config.configurationSet,
        DestinationCountryParameters: { IN_ENTITY_ID: config.entityId, IN_TEMPLATE_ID: template.templateId },
      };
      let messageId: string | undefined;
      try {
        const signal = AbortSignal.timeout(callTimeout(config.timeoutMs, options));
        messageId = (await sendTextMessage(input, signal)).MessageId;
      } catch (error) {
        throw smsFailure(error);
      }
      if (!messageId) throw new SmsError('provider', 'NoMessageId');
      return messageId;
    },
  };
}
