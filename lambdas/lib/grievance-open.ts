import { grievanceReference, type GrievanceOpened, GRIEVANCE_ID_LENGTH } from '../../rules/grievances';
import { maskPhone } from '../../rules/phone';
import type { GrievanceStore, NewGrievance } from '../adapters/grievances';
import type { Limit, RateLimiter } from '../adapters/rate-limiter';
import { AppError } from './http';
import { logger } from './logger';
import { randomCode } from './short-codes';

// Opening a grievance (issue 21), after a code or with a contact number: the number's
// limit (and the caller's others) counted first, then the ticket with a fresh id, due 90
// days later. The applicant is told its reference and due date; the log has ids and a
// masked number, never the text.

export interface OpenGrievanceDeps {
  readonly grievances: Pick<GrievanceStore, 'open'>;
  readonly limiter: Pick<RateLimiter, 'hit'>;
  readonly clock: () => Date;
  /** Grievances one number may open in any 24 hours. */
  readonly maxPerDay: number;
  /** A fresh ticket id (crypto random); tests give fixed ones to force a collision. */
  readonly newId?: () => string;
}

/** Ids tried before giving up: with 31^16 ids, a second collision in a row is a fault. */
const ID_ATTEMPTS = 3;

/**
 * The number's own limit, per 24 hours, counted apart for each way: the contact form's
 * count is not the code's, so that someone typing another's number into the form cannot
 * use up what its owner may open after proving it.
 */
export const grievanceNumberLimit = (phone: string, via: NewGrievance['via'], maxPerDay: number): Limit => ({
  kind: 'sliding',
  key: `${via === 'verified' ? 'grievances' : 'grievances-contact'}#${phone}`,
  windows: [{ seconds: 86_400, max: maxPerDay }],
});

export async function openGrievance(
  deps: OpenGrievanceDeps,
  ticket: Omit<NewGrievance, 'id' | 'openedAt'>,
  otherLimits: readonly Limit[] = [],
): Promise<GrievanceOpened> {
  const now = deps.clock();
  const limited = await deps.limiter.hit(
    [grievanceNumberLimit(ticket.phone, ticket.via, deps.maxPerDay), ...otherLimits],
    now,
  );
  if (!limited.allowed) {
    logger.info('Grievance rate-limited', { phone: maskPhone(ticket.phone), limit: limited.key.split('#')[0] });
    throw new AppError('RATE_LIMITED', { retryAfterSeconds: limited.retryAfterSeconds });
  }
  const newId = deps.newId ?? (() => randomCode(GRIEVANCE_ID_LENGTH));
  for (let attempt = 1; attempt <= ID_ATTEMPTS; attempt++) {
    const opened = await deps.grievances.open({ ...ticket, id: newId(), openedAt: now.toISOString() });
    if (opened === 'id-taken') continue;
    logger.info('Grievance opened', {
      grievanceId: opened.id,
      via: opened.via,
      ...(opened.applicationId && { applicationId: opened.applicationId }),
      phone: maskPhone(opened.phone),
    });
    return { reference: grievanceReference(opened.id), dueAt: opened.dueAt };
  }
  throw new Error(`No free grievance id after ${ID_ATTEMPTS} attempts`);
}
