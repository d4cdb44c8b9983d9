import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import * as z from 'zod';

// What the public flow hands to the outbound queue after a submit: small messages that
// name the application; the consumer reads the application itself, so no personal
// data sits in the queue.
export const outboundMessageSchema = z.object({
  kind: z.enum(['welcome', 'webhook']),
  applicationId: z.string().min(1),
});
export type OutboundMessage = z.infer<typeof outboundMessageSchema>;

export interface OutboundQueue {
  send(messages: readonly OutboundMessage[]): Promise<void>;
}

export function makeSqsOutboundQueue(client: SQSClient, queueUrl: string): OutboundQueue {
  return {
    async send(messages) {
      if (messages.length === 0) return;
      const result = await client.send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: messages.map((m, i) => ({ Id: String(i), MessageBody: JSON.stringify(m) })),
        }),
      );
      if (result.Failed?.length) throw new Error(`Outbound queue refused ${result.Failed.length} message(s)`);
    },
  };
}

/** An SQS client pointed at the local queue's SQS endpoint in local mode. */
export function makeSqsClient(env: { APP_MODE: 'aws' | 'local'; AWS_REGION: string; OUTBOUND_QUEUE_URL: string }): SQSClient {
  if (env.APP_MODE === 'local') {
    return new SQSClient({
      region: env.AWS_REGION,
      endpoint: new URL(env.OUTBOUND_QUEUE_URL).origin,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
  }
  return new SQSClient({ region: env.AWS_REGION });
}
