import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { contactGrievanceRequestSchema, GRIEVANCE_CAPTCHA_ACTION } from '../../rules/grievances';
import { maskPhone, toStoredPhone } from '../../rules/phone';
import { type CaptchaVerifier, stageRecaptchaVerifier } from '../adapters/captcha';
import { makeGrievanceOpener } from '../adapters/grievances';
import { makeRateLimiter } from '../adapters/rate-limiter';
import { systemClock } from '../lib/clock';
import { tableName } from '../lib/env';
import { openGrievance, type OpenGrievanceDeps } from '../lib/grievance-open';
import { AppError, httpHandler, json, parseBody } from '../lib/http';
import { logger } from '../lib/logger';
import { count } from '../lib/metrics';
import { ipKey, publicFlowRuntime } from '../lib/public-flow';
import { viewerAddress } from '../lib/viewer-address';
import { wiredOnFirstCall } from '../lib/wiring';

interface Deps extends OpenGrievanceDeps {
  readonly captcha: CaptchaVerifier;
  /** The key that hashes a viewer's address in its rate-limit key. */
  readonly otpHashKey: () => Promise<string>;
  readonly mode: 'aws' | 'local';
  readonly maxPerIpPerHour: number;
}

/**
 * A grievance without a code (issue 21): a contact number given on the form, protected as
 * the code request is (the captcha, then the number's limit and the viewer address's). The
 * number is not proved, so the ticket names no application and the applications table is
 * not read at all (its function may not): the answer is the same whether the number has
 * applied or not, and nobody learns from it who did. 201 with the reference and due date.
 */
export function makeHandler(deps: Deps) {
  return httpHandler<APIGatewayProxyEventV2>(async (event) => {
    const { mobile, captchaToken, text, language } = parseBody(event, contactGrievanceRequestSchema);
    const phone = toStoredPhone(mobile);
    const viewer = viewerAddress(event, { mode: deps.mode });
    if (!(await deps.captcha.verify(captchaToken, viewer))) {
      logger.info('Captcha refused', { phone: maskPhone(phone) });
      count('CaptchaRejected');
      throw new AppError('CAPTCHA_FAILED');
    }
    const opened = await openGrievance(deps, { text, phone, language, via: 'contact' }, [
      {
        kind: 'window',
        key: `grievance-ip#${ipKey(await deps.otpHashKey(), viewer)}`,
        seconds: 3600,
        max: deps.maxPerIpPerHour,
      },
    ]);
    return json(201, opened);
  });
}

export const handler = wiredOnFirstCall(() => {
  const runtime = publicFlowRuntime();
  const { env, db } = runtime;
  return makeHandler({
    captcha: stageRecaptchaVerifier(
      env,
      async () => (await runtime.secrets.provider()).recaptchaSecret,
      GRIEVANCE_CAPTCHA_ACTION,
    ),
    otpHashKey: runtime.secrets.otpHashKey,
    grievances: makeGrievanceOpener(db, tableName('grievances')),
    limiter: makeRateLimiter(db, tableName('rateLimits')),
    clock: systemClock(),
    mode: env.APP_MODE,
    maxPerDay: env.GRIEVANCE_MAX_PER_DAY,
    maxPerIpPerHour: env.GRIEVANCE_MAX_PER_IP_PER_HOUR,
  });
});
