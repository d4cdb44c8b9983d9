import * as v from 'valibot';
import { callTimeout, type CallOptions } from '../lib/time-budget';

// The WhatsApp side of the message gateway (the Cloud API); SMS is lambdas/adapters/sms.ts.
// Handlers see typed failures, never HTTP.

export interface MessageGateway {
  /**
   * The authentication template with the code in the body and the URL button; `timeoutMs`
   * shortens the configured timeout (the code request keeps time for the SMS fallback).
   */
  sendOtp(to: string, code: string, options?: CallOptions): Promise<string>;
  /** The welcome template in the language applied in, with its header video when one is configured. */
  sendWelcome(to: string, language: WelcomeLanguage): Promise<string>;
  sendText(to: string, body: string): Promise<string>;
  /**
   * Any approved template with text parameters in its body (the decision notices' utility
   * templates) and, where the template has a dynamic URL button, the URL's suffix (its
   * `{{1}}`: the approval's card link, issue 20).
   */
  sendTemplate(
    to: string,
    name: string,
    language: string,
    bodyParameters: readonly string[],
    urlButtonSuffix?: string,
  ): Promise<string>;
}

export type WhatsAppFailure = 'not-configured' | 'invalid-phone-number-id' | 'network' | 'provider';

export class WhatsAppError extends Error {
  constructor(
    readonly failure: WhatsAppFailure,
    readonly provider: { code?: number; subcode?: number; message?: string; status?: number } = {},
  ) {
    super(`WhatsApp send failed: ${failure}${provider.code ? ` (${provider.code})` : ''}`);
    this.name = 'WhatsAppError';
  }
}

/**
 * What a refusal means for the visitor. Meta's codes (Cloud API error codes reference):
 * 131026 message undeliverable (no WhatsApp on the number, old app, terms not accepted);
 * 130429 throughput (80 messages/s per number by default), 131048 spam rate limit (also
 * what a full messaging tier answers), 131056 pair rate limit (same recipient too
 * often), 80007 and 4 the account's and the app's call rate; 368 blocked for policy
 * violations, 131031 account locked, 131047 re-engagement, 131049 not delivered to keep
 * engagement healthy.
 */
export type WhatsAppRefusal = 'undeliverable' | 'rate-limit' | 'blocked' | 'network' | 'not-configured' | 'other';

const rateLimitCodes = new Set([130429, 131048, 131056, 80007, 4]);
const blockedCodes = new Set([368, 131031, 131047, 131049, 130497, 131045]);

export function whatsAppRefusal(error: unknown): WhatsAppRefusal {
  if (!(error instanceof WhatsAppError)) return 'other';
  if (error.failure === 'not-configured') return 'not-configured';
  if (error.failure === 'network') return 'network';
  const code = error.provider.code;
  if (code === 131026) return 'undeliverable';
  if (code !== undefined && rateLimitCodes.has(code)) return 'rate-limit';
  if (code !== undefined && blockedCodes.has(code)) return 'blocked';
  return 'other';
}

/** The page languages: a Tamil applicant gets the Tamil welcome. */
type WelcomeLanguage = 'en' | 'ta';

export interface WhatsAppConfig {
  readonly baseUrl: string;
  readonly apiVersion: string;
  readonly accessToken: string;
  readonly phoneNumberId: string;
  readonly timeoutMs: number;
  readonly authTemplate: { readonly name: string; readonly language: string };
  /** A template name and WhatsApp language code for each page language. */
  readonly welcomeTemplates: Readonly<Record<WelcomeLanguage, { readonly name: string; readonly language: string }>>;
  readonly welcomeVideoLink?: string;
}

const successSchema = v.object({ messages: v.pipe(v.array(v.object({ id: v.string() })), v.minLength(1)) });
const errorSchema = v.object({
  error: v.object({
    message: v.optional(v.string()),
    code: v.optional(v.number()),
    error_subcode: v.optional(v.number()),
  }),
});

export function makeWhatsAppGateway(config: WhatsAppConfig, fetchImpl: typeof fetch = fetch): MessageGateway {
  async function send(to: string, payload: Record<string, unknown>, options?: CallOptions): Promise<string> {
    if (!config.accessToken || !config.phoneNumberId) throw new WhatsAppError('not-configured');
    const url = `${config.baseUrl.replace(/\/$/, '')}/${config.apiVersion}/${encodeURIComponent(config.phoneNumberId)}/messages`;
    let response: Response;
    let body: unknown;
    try {
      response = await fetchImpl(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${config.accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ messaging_product: 'whatsapp', recipient_type: 'individual', to, ...payload }),
        signal: AbortSignal.timeout(callTimeout(config.timeoutMs, options)),
      });
      body = await response.json().catch(() => undefined);
    } catch {
      throw new WhatsAppError('network');
    }
    if (response.ok) {
      const parsed = v.safeParse(successSchema, body);
      if (parsed.success) return parsed.output.messages[0]!.id;
      throw new WhatsAppError('provider', { status: response.status });
    }
    const error = v.safeParse(errorSchema, body);
    const provider = {
      status: response.status,
      ...(error.success && {
        code: error.output.error.code,
        subcode: error.output.error.error_subcode,
        message: error.output.error.message,
      }),
    };
    if (provider.code === 100 && provider.subcode === 33) throw new WhatsAppError('invalid-phone-number-id', provider);
    throw new WhatsAppError('provider', provider);
  }

  return {
    sendOtp: (to, code, options) =>
      send(
        to,
        {
          type: 'template',
          template: {
            name: config.authTemplate.name,
            language: { code: config.authTemplate.language },
            components: [
              { type: 'body', parameters: [{ type: 'text', text: code }] },
              { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: code }] },
            ],
          },
        },
        options,
      ),
    sendWelcome: (to, language) =>
      send(to, {
        type: 'template',
        template: {
          name: config.welcomeTemplates[language].name,
          language: { code: config.welcomeTemplates[language].language },
          ...(config.welcomeVideoLink && {
            components: [{ type: 'header', parameters: [{ type: 'video', video: { link: config.welcomeVideoLink } }] }],
          }),
        },
      }),
    sendText: (to, text) => send(to, { type: 'text', text: { body: text, preview_url: false } }),
    sendTemplate: (to, name, language, bodyParameters, urlButtonSuffix) => {
      const components = [
        ...(bodyParameters.length > 0
          ? [{ type: 'body', parameters: bodyParameters.map((text) => ({ type: 'text', text })) }]
          : []),
        // Meta's dynamic URL button: the template holds the URL up to `{{1}}`; this is the rest.
        ...(urlButtonSuffix === undefined
          ? []
          : [{ type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: urlButtonSuffix }] }]),
      ];
      return send(to, {
        type: 'template',
        template: { name, language: { code: language }, ...(components.length > 0 && { components }) },
      });
    },
  };
}
