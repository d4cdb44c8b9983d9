import * as v from 'valibot';
import { type CallOptions, callTimeout } from '../lib/time-budget';

// reCAPTCHA v3, checked on the server: success, the expected action, a score at or
// above the stage's threshold, and (when configured) the expected hostname.
export interface CaptchaVerifier {
  /** `options.timeoutMs` shortens the configured timeout to what the request has left. */
  verify(token: string, remoteIp?: string, options?: CallOptions): Promise<boolean>;
}

const siteverifySchema = v.object({
  success: v.boolean(),
  score: v.optional(v.number()),
  action: v.optional(v.string()),
  hostname: v.optional(v.string()),
});

export function makeRecaptchaVerifier(options: {
  verifyUrl: string;
  secret: () => Promise<string>;
  action: string;
  minScore: number;
  hostnames: readonly string[];
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
}): CaptchaVerifier {
  const fetchImpl = options.fetchImpl ?? fetch;
  return {
    async verify(token, remoteIp, callOptions) {
      const secret = await options.secret();
      if (!secret) return false;
      const form = new URLSearchParams({ secret, response: token, ...(remoteIp && { remoteip: remoteIp }) });
      try {
        const response = await fetchImpl(options.verifyUrl, {
          method: 'POST',
          body: form,
          signal: AbortSignal.timeout(callTimeout(options.timeoutMs ?? 5000, callOptions)),
        });
        const result = v.safeParse(siteverifySchema, await response.json());
        if (!result.success) return false;
        const { success, score, action, hostname } = result.output;
        return (
          success &&
          action === options.action &&
          (score ?? 0) >= options.minScore &&
          (options.hostnames.length === 0 || (hostname !== undefined && options.hostnames.includes(hostname)))
        );
      } catch {
        // An unreachable verifier refuses: a captcha that cannot be checked is not passed.
        return false;
      }
    },
  };
}

/**
 * The stage's reCAPTCHA check for one action (the code request's `send_otp`, the grievance
 * form's `grievance`), from its environment: verify URL, minimum score, allowed hostnames.
 */
export function stageRecaptchaVerifier(
  env: { CAPTCHA_VERIFY_URL: string; CAPTCHA_MIN_SCORE: number; CAPTCHA_HOSTNAMES: string },
  secret: () => Promise<string>,
  action: string,
): CaptchaVerifier {
  return makeRecaptchaVerifier({
    verifyUrl: env.CAPTCHA_VERIFY_URL,
    secret,
    action,
    minScore: env.CAPTCHA_MIN_SCORE,
    hostnames: env.CAPTCHA_HOSTNAMES.split(',')
      .map((h) => h.trim())
      .filter(Boolean),
  });
}
