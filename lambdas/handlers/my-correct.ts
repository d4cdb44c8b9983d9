import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as v from 'valibot';
import {
  correctionChangesSchema,
  correctionProblems,
  correctionRequestSchema,
  type CorrectionResponse,
} from '../../rules/my-application';
import { maskPhone } from '../../rules/phone';
import { type CorrectionOutcome, correctApplication } from '../adapters/correction';
import type { CardReader } from '../adapters/member-cards';
import { cardRuntime } from '../lib/card-runtime';
import { systemClock } from '../lib/clock';
import { readVerification } from '../lib/codes';
import { dbRuntime } from '../lib/db-runtime';
import { AppError, fieldCodes, httpHandler, json, parseBody } from '../lib/http';
import { logger } from '../lib/logger';
import { wiredOnFirstCall } from '../lib/wiring';

interface Deps {
  readonly signingKey: () => Promise<string>;
  readonly applications: () => Pick<CardReader, 'byPhone'>;
  readonly correct: (
    id: string,
    changes: v.InferOutput<typeof correctionChangesSchema>,
    now: Date,
  ) => Promise<CorrectionOutcome>;
  readonly clock: () => Date;
}

/**
 * The applicant's correction (issue 21, DPDP Act 2023 s. 12): after the code, the name,
 * email, alternate number, district and constituency, education and occupation, each
 * checked as the form checks it. Only the changed fields are written, with an audit entry
 * naming them; the stream carries the change to the rollups and the search.
 */
export function makeHandler({ signingKey, applications, correct, clock }: Deps) {
  return httpHandler<APIGatewayProxyEventV2>(async (event) => {
    const request = parseBody(event, correctionRequestSchema);
    const now = clock();
    const verification = await readVerification(await signingKey(), request.verificationToken, now);
    if (!verification) throw new AppError('VERIFICATION_REQUIRED');
    const parsed = v.safeParse(correctionChangesSchema, request.changes);
    if (!parsed.success) throw new AppError('VALIDATION_FAILED', { fields: fieldCodes(parsed.issues) });
    const item = await applications().byPhone(verification.phone);
    if (!item) throw new AppError('NO_APPLICATION');
    const problems = correctionProblems(item, parsed.output, verification.phone.slice(2));
    if (Object.keys(problems).length > 0) throw new AppError('VALIDATION_FAILED', { fields: problems });
    const id = String(item.id);
    const outcome = await correct(id, parsed.output, now);
    if (outcome.kind === 'not-found') throw new AppError('NO_APPLICATION');
    if (outcome.kind === 'busy') throw new AppError('APPLICATION_BUSY');
    const changed = outcome.kind === 'corrected' ? outcome.changed : [];
    // The names of the fields, never their values.
    logger.info('Application corrected by its applicant', {
      applicationId: id,
      phone: maskPhone(verification.phone),
      changed,
    });
    const body: CorrectionResponse = { changed };
    return json(200, body);
  });
}

export const handler = wiredOnFirstCall(() => {
  const runtime = cardRuntime();
  const { db, tables } = dbRuntime('applications', 'audit');
  return makeHandler({
    signingKey: runtime.secrets.signingKey,
    applications: runtime.cards,
    correct: (id, changes, now) => correctApplication(db, tables, id, changes, now),
    clock: systemClock(),
  });
});
