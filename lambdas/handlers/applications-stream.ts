import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { makeSqsClient, makeSqsOutboundQueue, type OutboundQueue } from '../adapters/outbound-queue';
import { makeRollupsWriter, type RollupsWriter } from '../adapters/rollups-writer';
import { makeSearchIndex, type SearchIndex } from '../adapters/search-index';
import { systemClock } from '../lib/clock';
import { dbRuntime } from '../lib/db-runtime';
import { baseEnvSchema, parseEnv } from '../lib/env';
import { tracedCall } from '../lib/tracing';
import * as v from 'valibot';
import { logger } from '../lib/logger';
import { type ApplicationChange, applyChanges, parseStreamRecord } from '../lib/rollups-stream';
import { indexChanges } from '../lib/search-stream';
import { wiredOnFirstCall } from '../lib/wiring';

// Consumer of the applications table's stream: keeps the report rollups and the search
// index (issue 18), and queues the webhook's `deleted` event for every application that
// goes (issue 21: whoever erased it, staff, the retention job or the applicant). Each is idempotent by sequence number. The batch is
// folded as a whole (lambdas/lib/rollups-stream.ts) rather than record by record, so
// partial failures are reported here: the first record of every application that
// could not be applied. Lambda then retries from the lowest of them; records already
// applied are recognised by their sequence number and change nothing.

export interface StreamDeps {
  readonly rollups: RollupsWriter;
  readonly search: SearchIndex;
  readonly clock: () => Date;
  /** Where the erasures' webhook events go; none: not told (tests of the rollups alone). */
  readonly outbound?: OutboundQueue;
}

/** The erasures of a batch, to the webhook; the records of those the queue refused are reported failed. */
async function tellErasures(outbound: OutboundQueue, changes: readonly ApplicationChange[], failures: Set<string>) {
  const erased = changes.filter((change) => change.removed);
  if (erased.length === 0) return;
  try {
    await outbound.send(erased.map((change) => ({ kind: 'deleted', applicationId: change.id })));
    logger.info('Erasures queued for the webhook', { erased: erased.length });
  } catch (error) {
    logger.error('Could not queue the erasures for the webhook', {
      errorName: error instanceof Error ? error.name : typeof error,
    });
    // Retried with the batch: the consumer's idempotency makes a second event for one id send nothing.
    for (const change of erased) failures.add(change.sequenceNumber);
  }
}

/** The search index's part of a batch: the applications it could not apply are reported. */
async function indexBatch(search: SearchIndex, changes: readonly ApplicationChange[], failures: Set<string>) {
  try {
    const result = await indexChanges(search, changes);
    for (const change of changes) if (result.failedIds.has(change.id)) failures.add(change.sequenceNumber);
    logger.info('Search index updated from the applications stream', {
      applied: result.applied,
      unchanged: result.unchanged,
      failedApplications: result.failedIds.size,
    });
  } catch (error) {
    logger.error('Search index update failed', { errorName: error instanceof Error ? error.name : typeof error });
    for (const change of changes) failures.add(change.sequenceNumber);
  }
}

export function makeHandler({ rollups, search, clock, outbound }: StreamDeps) {
  return async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const changes: ApplicationChange[] = [];
    const failures = new Set<string>();
    let ignored = 0;
    for (const record of event.Records) {
      const parsed = parseStreamRecord(record);
      if (parsed.kind === 'change') changes.push(parsed.change);
      else if (parsed.kind === 'ignored') ignored += 1;
      else {
        logger.error('Unusable applications stream record', { reason: parsed.reason, eventID: record.eventID });
        if (parsed.sequenceNumber) failures.add(parsed.sequenceNumber);
      }
    }
    try {
      const result = await applyChanges(rollups, changes, clock());
      for (const change of changes) if (result.failedIds.has(change.id)) failures.add(change.sequenceNumber);
      logger.info('Rollups updated from the applications stream', {
        records: event.Records.length,
        ignored,
        applied: result.applied,
        unchanged: result.unchanged,
        failedApplications: result.failedIds.size,
      });
    } catch (error) {
      // Nothing is known to be applied: the whole batch comes back (and is idempotent).
      logger.error('Rollups update failed', { errorName: error instanceof Error ? error.name : typeof error });
      for (const change of changes) failures.add(change.sequenceNumber);
    }
    await indexBatch(search, changes, failures);
    if (outbound) await tellErasures(outbound, changes, failures);
    return { batchItemFailures: [...failures].map((itemIdentifier) => ({ itemIdentifier })) };
  };
}

// Every stage sets the queue (lib/functions.ts `sendsOutbound`, held by the infrastructure
// tests); a test tier without one keeps the rollups and the search index only.
const streamEnvSchema = v.object({ ...baseEnvSchema.entries, OUTBOUND_QUEUE_URL: v.optional(v.string(), '') });

export const handler = wiredOnFirstCall(() => {
  const { db, tables } = dbRuntime('rollups', 'search');
  const env = parseEnv(streamEnvSchema);
  return makeHandler({
    rollups: makeRollupsWriter(db, tables.rollups),
    search: makeSearchIndex(db, tables.search),
    clock: systemClock(),
    ...(env.OUTBOUND_QUEUE_URL && {
      outbound: makeSqsOutboundQueue(tracedCall('SQS', makeSqsClient(env)), env.OUTBOUND_QUEUE_URL),
    }),
  });
});
