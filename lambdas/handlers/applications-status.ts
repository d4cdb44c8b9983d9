import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { statusChangeRequestSchema, type StatusChangeResponse } from '../../rules/staff-api';
import { makeReviewStore, type ReviewStore } from '../adapters/review';
import { systemClock } from '../lib/clock';
import { httpHandler, json, parseBody } from '../lib/http';
import { logger } from '../lib/logger';
import { requireStaff } from '../lib/staff';
import { staffRuntime } from '../lib/staff-runtime';

/** An admin moves one application or a selection to a status, with an optional note. */
export function makeHandler(deps: { review: ReviewStore; clock: () => Date }) {
  return httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
    const staff = requireStaff(event, 'write');
    const { ids, status, note } = parseBody(event, statusChangeRequestSchema);
    const now = deps.clock();
    const result: StatusChangeResponse = { changed: [], notFound: [] };
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += 10) {
      const chunk = unique.slice(i, i + 10);
      const outcomes = await Promise.all(chunk.map((id) => deps.review.changeStatus(id, status, staff, now, note)));
      outcomes.forEach((outcome, j) => (outcome === 'changed' ? result.changed : result.notFound).push(chunk[j]!));
    }
    logger.info('Status changed', { count: result.changed.length, status });
    return json(200, result);
  });
}

const { db, tables } = staffRuntime();
export const handler = makeHandler({ review: makeReviewStore(db, tables), clock: systemClock() });
