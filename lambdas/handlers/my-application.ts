import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as v from 'valibot';
import { applicationStatuses } from '../../rules/application';
import { type MyApplication, myApplicationRequestSchema } from '../../rules/my-application';
import { maskPhone } from '../../rules/phone';
import type { AuditEntry, DecisionNotice } from '../../rules/staff-api';
import { toRow } from '../adapters/application-items';
import { makeDecisionNoticeStore, noticesWithStatus } from '../adapters/decision-notices';
import { makeDeliveryStore } from '../adapters/deliveries';
import { cardIsLive, cardOf, type CardReader } from '../adapters/member-cards';
import { makeReviewStore, type ReviewStore } from '../adapters/review';
import type { CardKeys } from '../lib/card-keys';
import { cardRuntime } from '../lib/card-runtime';
import { systemClock } from '../lib/clock';
import { readVerification } from '../lib/codes';
import { dbRuntime } from '../lib/db-runtime';
import { AppError, httpHandler, json, parseBody } from '../lib/http';
import { logger } from '../lib/logger';
import { wiredOnFirstCall } from '../lib/wiring';

interface Deps {
  readonly signingKey: () => Promise<string>;
  readonly keys: () => Promise<Pick<CardKeys, 'linkOf'>>;
  readonly applications: () => Pick<CardReader, 'byPhone'>;
  readonly review: Pick<ReviewStore, 'auditOf'>;
  readonly notices: (applicationId: string) => Promise<DecisionNotice[]>;
  readonly clock: () => Date;
}

const consentSchema = v.object({
  terms_version: v.string(),
  language: v.picklist(['en', 'ta']),
  accepted_at: v.string(),
});

const isStatus = (value: unknown): value is MyApplication['history'][number]['status'] =>
  (applicationStatuses as readonly unknown[]).includes(value);

/** The statuses the application had, oldest first: the submission, then each change (who made it is not said). */
function historyOf(item: Record<string, unknown>, audit: readonly AuditEntry[]): MyApplication['history'] {
  const changes = audit
    .filter((entry) => entry.action === 'status' && isStatus(entry.to))
    .map((entry) => ({ at: entry.at, status: entry.to as MyApplication['history'][number]['status'] }))
    .reverse();
  return [{ at: String(item.submitted_at), status: 'pending' }, ...changes];
}

/**
 * "My application" (issue 21): after the code check, the verification (read, not spent)
 * names the number; its application is answered whole: every field, the consent, the
 * status history, the decision notices with their delivery, and a member's card link.
 * NO_APPLICATION when the number has none: the number was proved to be the caller's.
 */
export function makeHandler(deps: Deps) {
  return httpHandler<APIGatewayProxyEventV2>(async (event) => {
    const { verificationToken } = parseBody(event, myApplicationRequestSchema);
    const verification = await readVerification(await deps.signingKey(), verificationToken, deps.clock());
    if (!verification) throw new AppError('VERIFICATION_REQUIRED');
    const item = await deps.applications().byPhone(verification.phone);
    if (!item) throw new AppError('NO_APPLICATION');
    const id = String(item.id);
    const [audit, messages] = await Promise.all([deps.review.auditOf(id), deps.notices(id)]);
    const consent = v.safeParse(consentSchema, item.consent);
    const card = cardOf(item);
    const body: MyApplication = {
      application: toRow(item),
      ...(consent.success && {
        consent: {
          termsVersion: consent.output.terms_version,
          language: consent.output.language,
          acceptedAt: consent.output.accepted_at,
        },
      }),
      history: historyOf(item, audit),
      messages,
      ...(card && cardIsLive(item, card) && { cardLink: (await deps.keys()).linkOf(card.serial) }),
    };
    logger.info('Application shown to its applicant', { applicationId: id, phone: maskPhone(verification.phone) });
    return json(200, body);
  });
}

export const handler = wiredOnFirstCall(() => {
  const runtime = cardRuntime();
  const { db, tables } = dbRuntime('applications', 'audit', 'deliveries');
  const noticeStore = makeDecisionNoticeStore(db, tables.deliveries);
  const deliveries = makeDeliveryStore(db, tables.deliveries);
  return makeHandler({
    signingKey: runtime.secrets.signingKey,
    keys: runtime.keys,
    applications: runtime.cards,
    review: makeReviewStore(db, tables),
    notices: (id) => noticesWithStatus(noticeStore, deliveries, id),
    clock: systemClock(),
  });
});
