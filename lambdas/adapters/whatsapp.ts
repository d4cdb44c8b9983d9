import * as z from 'zod';

// The message gateway: WhatsApp Cloud API today (SMS could sit behind the same
// interface tomorrow). Handlers see typed failures, never HTTP.

export interface MessageGateway {
  /** The authentication template with the code in the body and the URL button. */
  sendOtp(to: string, code: string): Promise<string>;
  /** The welcome template, with its header video when one is configured. */
  sendWelcome(to: string): Promise<string>;
  sendText(to: string, body: string): Promise<string>;
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

export interface WhatsAppConfig {
  readonly baseUrl: string;
  readonly apiVersion: string;
  readonly accessToken: string;
  readonly phoneNumberId: string;
  readonly timeoutMs: number;
  readonly authTemplate: { readonly name: string; readonly language: string };
  readonly welcomeTemplate: { readonly name: string; readonly language: string; readonly videoLink?: string };
}

const successSchema = z.object({ messages: z.array(z.object({ id: z.string() })).min(1) });
const errorSchema = z.object({
  error: z.object({ message: z.string().optional(), code: z.number().optional(), error_subcode: z.number().optional() }),
});

export function makeWhatsAppGateway(config: WhatsAppConfig, fetchImpl: typeof fetch = fetch): MessageGateway {
  async function send(to: string, payload: Record<string, unknown>): Promise<string> {
    if (!config.accessToken || !config.phoneNumberId) throw new WhatsAppError('not-configured');
    const url = `${config.baseUrl.replace(/\/$/, '')}/${config.apiVersion}/${encodeURIComponent(config.phoneNumberId)}/messages`;
    let response: Response;
    let body: unknown;
    try {
      response = await fetchImpl(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${config.accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ messaging_product: 'whatsapp', recipient_type: 'individual', to, ...payload }),
        signal: AbortSignal.timeout(config.timeoutMs),
      });
      body = await response.json().catch(() => undefined);
    } catch {
      throw new WhatsAppError('network');
    }
    if (response.ok) {
      const parsed = successSchema.safeParse(body);
      if (parsed.success) return parsed.data.messages[0]!.id;
      throw new WhatsAppError('provider', { status: response.status });
    }
    const error = errorSchema.safeParse(body);
    const provider = {
      status: response.status,
      ...(error.success && {
        code: error.data.error.code,
        subcode: error.data.error.error_subcode,
        message: error.data.error.message,
      }),
    };
    if (provider.code === 100 && provider.subcode === 33) throw new WhatsAppError('invalid-phone-number-id', provider);
    throw new WhatsAppError('provider', provider);
  }

  return {
    sendOtp: (to, code) =>
      send(to, {
        type: 'template',
        template: {
          name: config.authTemplate.name,
          language: { code: config.authTemplate.language },
          components: [
            { type: 'body', parameters: [{ type: 'text', text: code }] },
            { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: code }] },
          ],
        },
      }),
    sendWelcome: (to) =>
      send(to, {
        type: 'template',
        template: {
          name: config.welcomeTemplate.name,
          language: { code: config.welcomeTemplate.language },
          ...(config.welcomeTemplate.videoLink && {
            components: [{ type: 'header', parameters: [{ type: 'video', video: { link: config.welcomeTemplate.videoLink } }] }],
          }),
        },
      }),
    sendText: (to, text) => send(to, { type: 'text', text: { body: text, preview_url: false } }),
  };
}
