import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { type GrievanceAnswerView, grievanceAnswerRequestSchema } from '../../rules/grievances';
import { type GrievanceStore, makeGrievanceReader } from '../adapters/grievances';
import { makeSecretsLoader, secretsEnvSchema } from '../adapters/secrets';
import { dbRuntime } from '../lib/db-runtime';
import { parseEnv } from '../lib/env';
import { type GrievanceLinks, grievanceLinksOf } from '../lib/grievance-links';
import { AppError, httpHandler, json, parseBody } from '../lib/http';
import { logger } from '../lib/logger';
import { wiredOnFirstCall } from '../lib/wiring';

interface Deps {
  readonly links: () => Promise<Pick<GrievanceLinks, 'idOfLink'>>;
  readonly grievances: Pick<GrievanceStore, 'get'>;
}

/**
 * The answer page (issue 21): the link an SMS carried, `<id>.<mac>`, in the body (never in
 * a URL a log keeps). The MAC is checked before anything is read; a wrong link, a ticket
 * without an answer and one erased since are one answer, 404 NOT_FOUND. The page shows the
 * reference and the answer, never the grievance's own text.
 */
export function makeHandler({ links, grievances }: Deps) {
  return httpHandler<APIGatewayProxyEventV2>(async (event) => {
    const { link } = parseBody(event, grievanceAnswerRequestSchema);
    const id = (await links()).idOfLink(link);
    const ticket = id ? await grievances.get(id) : undefined;
    if (!ticket?.answer || !ticket.answeredAt) throw new AppError('NOT_FOUND');
    logger.info('Grievance answer shown', { grievanceId: ticket.id });
    const body: GrievanceAnswerView = {
      reference: ticket.reference,
      answer: ticket.answer,
      answeredAt: ticket.answeredAt,
    };
    return json(200, body);
  });
}

export const handler = wiredOnFirstCall(() => {
  const secrets = makeSecretsLoader(parseEnv(secretsEnvSchema));
  const { db, tables } = dbRuntime('grievances');
  return makeHandler({
    links: async () => grievanceLinksOf(await secrets.cardKey()),
    grievances: makeGrievanceReader(db, tables.grievances),
  });
});
