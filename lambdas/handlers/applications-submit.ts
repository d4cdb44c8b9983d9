import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as v from 'valibot';
import { applicationSchema, submitRequestSchema, type SubmitResponse } from '../../rules/application';
import { maskPhone } from '../../rules/phone';
import { makeApplicationRepository, type ApplicationRepository } from '../adapters/applications';
import { type CampaignLookup, makeCampaignLookup } from '../adapters/campaigns';
import { makeSqsClient, makeSqsOutboundQueue, type OutboundQueue } from '../adapters/outbound-queue';
import { resolveSource } from '../lib/attribution';
import { systemClock } from '../lib/clock';
import { readVerification } from '../lib/codes';
import { tableName } from '../lib/env';
import { AppError, fieldCodes, httpHandler, json, parseBody } from '../lib/http';
import { logger } from '../lib/logger';
import { count } from '../lib/metrics';
import { publicFlowRuntime } from '../lib/public-flow';
import { wiredOnFirstCall } from '../lib/wiring';

export interface SubmitDeps {
  readonly applications: Pick<ApplicationRepository, 'create'>;
  readonly queue: OutboundQueue;
  readonly signingKey: () => Promise<string>;
  readonly otpTable: string;
  readonly clock: () => Date;
  readonly newId: () => string;
  /** Campaign and referral codes (issue 19); without it, only the UTM values are kept. */
  readonly campaigns?: CampaignLookup;
}

/**
 * Stores an application for a verified number. Everything is checked again here; the
 * application, the number's uniqueness guard and the spending of the verification are
 * one transaction. The welcome message and the webhook are queued: the visitor never
 * waits on them. Where the applicant came from (campaign, UTM values, referrer) is frozen
 * on the application here, never refusing it (lambdas/lib/attribution.ts).
 */
export function makeHandler(deps: SubmitDeps) {
  return httpHandler<APIGatewayProxyEventV2>(async (event) => {
    const request = parseBody(event, submitRequestSchema);
    const now = deps.clock();
    const verification = await readVerification(await deps.signingKey(), request.verificationToken, now);
    if (!verification) throw new AppError('VERIFICATION_REQUIRED');
    const phone = verification.phone;

    const parsed = v.safeParse(applicationSchema({ now, verifiedMobile: phone.slice(2) }), request.application);
    if (!parsed.success) {
      const fields = fieldCodes(parsed.issues);
      const onlyAge = Object.values(fields).every((code) => code === 'UNDER_AGE');
      throw new AppError(onlyAge ? 'UNDER_AGE' : 'VALIDATION_FAILED', { fields });
    }
    const { accept_terms: _accepted, email, ...fields } = parsed.output;
    const source = await resolveSource(deps.campaigns, request.attribution, now);

    const id = deps.newId();
    const submittedAt = now.toISOString();
    const result = await deps.applications.create(
      {
        ...fields,
        ...(email && { email }),
        ...source,
        id,
        phone_number: phone,
        submitted_at: submittedAt,
        consent: { terms_version: request.termsVersion, language: request.language, accepted_at: submittedAt },
      },
      { table: deps.otpTable, tokenId: verification.id, expiresAt: verification.expiresAt },
    );
    if (result.kind === 'already-registered') throw new AppError('ALREADY_REGISTERED');
    if (result.kind === 'token-spent') throw new AppError('VERIFICATION_REQUIRED');

    try {
      await deps.queue.send([
        { kind: 'welcome', applicationId: id },
        { kind: 'webhook', applicationId: id },
      ]);
    } catch (error) {
      // The application is stored; what failed is its follow-up. Logged for the alarm
      // and the runbook's replay; the visitor's submission stands.
      logger.error('Outbound queue send failed', { applicationId: id, errorName: (error as Error).name });
    }
    logger.info('Application submitted', { applicationId: id, phone: maskPhone(phone) });
    count('ApplicationSubmitted');
    const body: SubmitResponse = { id };
    return json(201, body);
  });
}

export const handler = wiredOnFirstCall(() => {
  const runtime = publicFlowRuntime();
  return makeHandler({
    applications: makeApplicationRepository(runtime.db, tableName('applications')),
    queue: makeSqsOutboundQueue(makeSqsClient(runtime.env), runtime.env.OUTBOUND_QUEUE_URL),
    signingKey: runtime.secrets.signingKey,
    otpTable: tableName('otps'),
    clock: systemClock(),
    newId: randomUUID,
    campaigns: makeCampaignLookup(runtime.db, tableName('campaigns')),
  });
});
