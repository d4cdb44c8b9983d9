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
import { requestDeadline } from '../lib/time-budget';

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

/** Changes in flight at once in one request: DynamoDB's transactions, not the function, are the limit. */
export const STATUS_CONCURRENCY = 10;
/**
 * What the request keeps of its time for the steps in flight when it stops starting them:
 * half (2 s at least). A step is one DynamoDB call, a few ms on DynamoDB; a loaded local
 * stand-in serving a hundred changes at once takes seconds for one.
 */
const stopsBefore = (leftMs: number) => Math.max(2000, leftMs / 2);

/**
 * An admin or a coordinator moves one application or a selection to a status, with an
 * optional note. Approving or rejecting queues a decision notice for each application
 * whose status really changed (docs/MESSAGING.md, "Decision notices").
 */
export function makeHandler(deps: { review: ReviewStore; clock: () => Date; notices?: DecisionNoticeSettings }) {
  return httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event, context) => {
    // The whole request within the function's time (what Lambda has left, less the answer's
    // margin): a selection that cannot be done in it is answered in part, never cut off.
    const deadline = requestDeadline(context, Number.MAX_SAFE_INTEGER);
    const staff = requireStaff(event, 'review');
    const { ids, status, note } = parseBody(event, statusChangeRequestSchema);
    const now = deps.clock();
    const result: StatusChangeResponse = { changed: [], unchanged: [], notFound: [], notDone: [] };
    const unique = [...new Set(ids)];
    await requireInScope(deps.review, staff.scope, unique);
    const queued: string[] = [];
    const queueing: Promise<void>[] = [];
    const limits = { deadline: deadline.at - stopsBefore(deadline.left()) };
    const outcomes = await settleAll(unique, STATUS_CONCURRENCY, async (id) => {
      const outcome = await deps.review.changeStatus(id, status, staff, now, note, staff.scope, limits);
      if (outcome !== 'changed') return outcome;
      // Queued 25 at a time as they change: a request cut short loses at most those not yet queued.
      queued.push(id);
      if (deps.notices?.enabled && isDecision(status) && queued.length >= 25) {
        queueing.push(queueNotices(deps.notices, queued.splice(0), status, now));
      }
      return outcome;
    });
    if (deps.notices?.enabled && isDecision(status) && queued.length > 0) {
      queueing.push(queueNotices(deps.notices, queued.splice(0), status, now));
    }
    await Promise.all(queueing);
    outcomes.forEach((outcome, i) => {
      const id = unique[i]!;
      if (outcome === 'not-found') result.notFound.push(id);
      else if (outcome === 'unchanged') result.unchanged.push(id);
      else if (outcome === 'not-done') result.notDone.push(id);
      else result.changed.push(id);
    });
    logger.info('Status changed', {
      count: result.changed.length,
      unchanged: result.unchanged.length,
      notDone: result.notDone.length,
      status,
    });
    return json(200, result);
  });
}

/**
 * `work` on every value, at most `concurrency` at once, in order of the values. When one
 * fails, no other starts, and the failure is thrown only once those running have ended:
 * nothing of the request goes on after its answer (an approval's drawn number would be
 * neither used nor listed).
 */
async function settleAll<T, R>(values: readonly T[], concurrency: number, work: (value: T) => Promise<R>) {
  const results: R[] = [];
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (next < values.length && !failure) {
      const i = next++;
      try {
        results[i] = await work(values[i]!);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, values.length) }, worker));
  if (failure) throw failure.error;
  return results;
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
      applicationIds: failed.map((m) => ('applicationId' in m ? m.applicationId : '')),
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
