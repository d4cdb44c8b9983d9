import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../lib/logger';

/**
 * Consumer of the applications table's stream. The report rollups (issue "Counts that
 * stay exact") are built here; until then it only records what it was handed.
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const counts = { INSERT: 0, MODIFY: 0, REMOVE: 0 };
  for (const record of event.Records) if (record.eventName) counts[record.eventName] += 1;
  logger.info('Applications stream batch', { records: event.Records.length, ...counts });
  return { batchItemFailures: [] };
};
