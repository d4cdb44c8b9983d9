import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { z } from 'zod';
import { logger } from '../lib/logger';

// Every message on the outbound queue names its kind; each kind gets a sender.
const outboundMessageSchema = z.object({ kind: z.string(), applicationId: z.string().optional() });

type Sender = (message: z.infer<typeof outboundMessageSchema>) => Promise<void>;

/**
 * Delivers what the public flow queues after a submit (welcome message, webhook).
 * The senders arrive with the public-flow issue; a message of a kind without a sender
 * is reported as failed, so it is retried and then kept in the dead-letter queue,
 * never dropped.
 */
export function makeHandler(senders: Record<string, Sender>) {
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      try {
        const parsed = outboundMessageSchema.safeParse(JSON.parse(record.body));
        const sender = parsed.success ? senders[parsed.data.kind] : undefined;
        if (!parsed.success || !sender) throw new Error('No sender for this message');
        await sender(parsed.data);
      } catch (error) {
        logger.warn('Outbound message not delivered', { messageId: record.messageId, errorName: (error as Error).name });
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures };
  };
}

export const handler = makeHandler({});
