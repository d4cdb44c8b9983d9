import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import * as v from 'valibot';
import { statusChangeRequestSchema, type StatusChangeResponse } from '../../rules/staff-api';
import {
  type DecisionMessage,
  decisions,
  MAX_DELAY_SECONDS,
  makeSqsClient,
  makeSqsOutboundQueue,
  type OutboundQueue,
  OutboundQueueError,
} from '../adapters/outbound-queue';
import { makeReviewStore, type ReviewStore } from '../adapters/review';
import { systemClock } from '../lib/clock';
import { parseEnv, publicFlowEnvSchema } from '../lib/env';
import { inScope, type StaffScope } from '../../rules/staff-scope';
import { AppError, httpHandler, json, parseBody } from '../lib/http';
import { logger } from '../lib/logger';
import { countBy } from '../lib/metrics';
import { requireStaff } from '../lib/staff';
import { wiredOnFirstCall } from '../lib/wiring';
import { dbRuntime } from '../lib/db-runtime';
import { tracedCall } from '../lib/tracing';

export interface DecisionNoticeSettings {
  readonly enabled: boolean;
  /** DECISION_QUIET_SECONDS: the notice waits this long (SQS delays at most 900 s; the consumer waits out the rest). */
  readonly quietSeconds: number;
  readonly queue: OutboundQueue;
}

const isDecision = (status: string): status is DecisionMessage['decision'] =>
  (decisions as readonly string[]).includes(status);

/**
 * A scoped staff member's selection, checked before anything changes: when one id is of
 * another district or names nothing, the whole selection is refused as not found (a
 * missing id and another district's answer alike), and nothing changes.
 */
async function requireInScope(review: Pick<ReviewStore, 'districtsOf'>, scope: StaffScope, ids: readonly string[]) {
  if (!scope.districts) return;
  const found = await review.districtsOf(ids);
  if (!ids.every((id) => found.has(id) && inScope(scope, found.get(id)))) throw new AppError('NOT_FOUND');
}

/**
 * An admin or a coordinator moves one application or a selection to a status, with an
 * optional note. Approving or rejecting queues a decision notice for each application
 * whose status really changed (docs/MESSAGING.md, "Decision notices").
 */
export function makeHandler(deps: { review: ReviewStore; clock: () => Date; notices?: DecisionNoticeSettings }) {
  return httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
    const staff = requireStaff(event, 'review');
    const { ids, status, note } = parseBody(event, statusChangeRequestSchema);
    const now = deps.clock();
    const result: StatusChangeResponse = { changed: [], unchanged: [], notFound: [] };
    const unique = [...new Set(ids)];
    await requireInScope(deps.review, staff.scope, unique);
    // 25 at a time: a selection of 100 takes four rounds of parallel transactions.
    for (let i = 0; i < unique.length; i += 25) {
      const chunk = unique.slice(i, i + 25);
      const outcomes = await Promise.all(
        chunk.map((id) => deps.review.changeStatus(id, status, staff, now, note, staff.scope)),
      );
      const reallyChanged: string[] = [];
      outcomes.forEach((outcome, j) => {
        const id = chunk[j]!;
        if (outcome === 'not-found') result.notFound.push(id);
        else if (outcome === 'unchanged') result.unchanged.push(id);
        else reallyChanged.push(id);
      });
      result.changed.push(...reallyChanged);
      // Queued chunk by chunk: a request cut short (a timeout) loses at most the notices of the chunk in flight.
      if (deps.notices?.enabled && isDecision(status) && reallyChanged.length > 0) {
        await queueNotices(deps.notices, reallyChanged, status, now);
      }
    }
    logger.info('Status changed', { count: result.changed.length, unchanged: result.unchanged.length, status });
    return json(200, result);
  });
}

/**
 * The status change stands whatever happens here: it is committed, and the admin sees it
 * done. A notice the queue refused (after the adapter's own retry) is logged with its
 * application ids, decision and time, so that the runbook can queue it again, and the
 * failed request is counted as OutboundFailed (kind decision), which the dashboard shows
 * beside the consumer's failures.
 */
async function queueNotices(
  settings: DecisionNoticeSettings,
  applicationIds: readonly string[],
  decision: DecisionMessage['decision'],
  now: Date,
): Promise<void> {
  const changedAt = now.toISOString();
  const messages: DecisionMessage[] = applicationIds.map((applicationId) => ({
    kind: 'decision',
    applicationId,
    decision,
    changedAt,
  }));
  try {
    await settings.queue.send(messages, { delaySeconds: Math.min(settings.quietSeconds, MAX_DELAY_SECONDS) });
    logger.info('Decision notices queued', { count: messages.length, decision });
  } catch (error) {
    const failed = error instanceof OutboundQueueError ? error.failed : messages;
    logger.error('Decision notices not queued: the status change stands; queue them again from this entry', {
      errorName: (error as Error).name,
      count: failed.length,
      applicationIds: failed.map((m) => m.applicationId),
      decision,
      changedAt,
    });
    countBy('OutboundFailed', 'kind', 'decision');
  }
}

export const handler = wiredOnFirstCall(() => {
  const { db, tables } = dbRuntime('applications', 'audit', 'campaigns');
  const messaging = parseEnv(
    v.pick(publicFlowEnvSchema, [
      'APP_MODE',
      'AWS_REGION',
      'OUTBOUND_QUEUE_URL',
      'DECISION_NOTICES_ENABLED',
      'DECISION_QUIET_SECONDS',
    ]),
  );
  if (messaging.DECISION_NOTICES_ENABLED && !messaging.OUTBOUND_QUEUE_URL) {
    throw new Error('Invalid function configuration: OUTBOUND_QUEUE_URL (decision notices are on)');
  }
  return makeHandler({
    review: makeReviewStore(db, tables),
    clock: systemClock(),
    ...(messaging.DECISION_NOTICES_ENABLED && {
      notices: {
        enabled: true,
        quietSeconds: messaging.DECISION_QUIET_SECONDS,
        queue: makeSqsOutboundQueue(tracedCall('SQS', makeSqsClient(messaging)), messaging.OUTBOUND_QUEUE_URL),
      },
    }),
  });
});
