import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { myGrievanceRequestSchema } from '../../rules/grievances';
import { makeGrievanceOpener } from '../adapters/grievances';
import type { CardReader } from '../adapters/member-cards';
import { makeRateLimiter } from '../adapters/rate-limiter';
import { cardRuntime } from '../lib/card-runtime';
import { systemClock } from '../lib/clock';
import { readVerification } from '../lib/codes';
import { dbRuntime } from '../lib/db-runtime';
import { parseEnv, publicFlowEnvSchema } from '../lib/env';
import { openGrievance, type OpenGrievanceDeps } from '../lib/grievance-open';
import { AppError, httpHandler, json, parseBody } from '../lib/http';
import { wiredOnFirstCall } from '../lib/wiring';

interface Deps extends OpenGrievanceDeps {
  readonly signingKey: () => Promise<string>;
  readonly applications: () => Pick<CardReader, 'byPhone'>;
}

/**
 * A grievance after the code (issue 21): the verification (read, not spent) names the
 * number, which is the ticket's contact number; the number's application, if it has one,
 * is named too, with its district (a coordinator of that district sees the ticket). 201
 * with the reference and the due date.
 */
export function makeHandler(deps: Deps) {
  return httpHandler<APIGatewayProxyEventV2>(async (event) => {
    const { verificationToken, text, language } = parseBody(event, myGrievanceRequestSchema);
    const verification = await readVerification(await deps.signingKey(), verificationToken, deps.clock());
    if (!verification) throw new AppError('VERIFICATION_REQUIRED');
    const application = await deps.applications().byPhone(verification.phone);
    const district = application?.revenue_district;
    const opened = await openGrievance(deps, {
      text,
      phone: verification.phone,
      language,
      via: 'verified',
      ...(application && { applicationId: String(application.id) }),
      ...(typeof district === 'string' && district !== '' && { district }),
    });
    return json(201, opened);
  });
}

export const handler = wiredOnFirstCall(() => {
  const runtime = cardRuntime();
  const env = parseEnv(publicFlowEnvSchema);
  const { db, tables } = dbRuntime('grievances', 'rateLimits');
  return makeHandler({
    signingKey: runtime.secrets.signingKey,
    applications: runtime.cards,
    grievances: makeGrievanceOpener(db, tables.grievances),
    limiter: makeRateLimiter(db, tables.rateLimits),
    clock: systemClock(),
    maxPerDay: env.GRIEVANCE_MAX_PER_DAY,
  });
});
