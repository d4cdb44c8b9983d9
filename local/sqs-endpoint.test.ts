import {
  ChangeMessageVisibilityCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  QueueDoesNotExist,
  ReceiptHandleIsInvalid,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import {
  makeSqsClient,
  makeSqsOutboundQueue,
  makeSqsVisibility,
  type OutboundMessage,
  OutboundQueueError,
  THROTTLE_ATTEMPT_ATTRIBUTE,
} from '../lambdas/adapters/outbound-queue';
import { createLocalQueue, type LocalQueue, type LocalQueueHandler } from './queue';
import { type SqsEndpoint, startSqsEndpoint } from './sqs-endpoint';

// The local SQS endpoint, driven by the real SDK client: what the Lambda code sends
// lands in the local queue, and the SDK's own checks (body MD5, error mapping) pass.
const running: { endpoint: SqsEndpoint; queue: LocalQueue; client: SQSClient }[] = [];

afterEach(async () => {
  for (const { endpoint, queue, client } of running.splice(0)) {
    client.destroy();
    await queue.stop();
    await endpoint.close();
  }
});

async function setup(handler: LocalQueueHandler = () => undefined, visibilityTimeoutMs = 20) {
  const events: SQSEvent[] = [];
  const queue = createLocalQueue({
    name: 'outbound',
    visibilityTimeoutMs,
    maxReceiveCount: 3,
    pollIntervalMs: 10,
    handler: (event, context) => {
      events.push(event);
      return handler(event, context);
    },
  });
  const endpoint = await startSqsEndpoint({ port: 0, queues: { outbound: queue } });
  const client = new SQSClient({
    region: 'ap-south-1',
    endpoint: endpoint.url,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  running.push({ endpoint, queue, client });
  return { queue, endpoint, client, events, queueUrl: endpoint.queueUrl('outbound') };
}

describe('local SQS endpoint', () => {
  it('answers GetQueueUrl with the account-and-name URL', async () => {
    const { client, endpoint } = await setup();
    const result = await client.send(new GetQueueUrlCommand({ QueueName: 'outbound' }));
    expect(result.QueueUrl).toBe(`${endpoint.url}/000000000000/outbound`);
  });

  it('lands SendMessage in the local queue with its body and attributes', async () => {
    const { client, queue, queueUrl, events } = await setup();
    const body = JSON.stringify({ kind: 'welcome', applicationId: 'a-1', note: 'தமிழ்' });
    const sent = await client.send(
      new SendMessageCommand({
        QueueUrl: queueUrl,
        MessageBody: body,
        MessageAttributes: { source: { DataType: 'String', StringValue: 'submit' } },
      }),
    );
    expect(sent.MessageId).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent.MD5OfMessageAttributes).toMatch(/^[0-9a-f]{32}$/);

    queue.start();
    await queue.drain(2000);
    expect(events.flatMap((e) => e.Records)).toEqual([
      expect.objectContaining({
        messageId: sent.MessageId,
        body,
        md5OfBody: sent.MD5OfMessageBody,
        md5OfMessageAttributes: sent.MD5OfMessageAttributes,
        messageAttributes: {
          source: expect.objectContaining({ stringValue: 'submit', dataType: 'String' }) as unknown,
        },
      }),
    ]);
  });

  it('sends a batch entry by entry: Successful with MD5s, Failed for a bad entry', async () => {
    const { client, queue, queueUrl, events } = await setup();
    const result = await client.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: [
          { Id: '0', MessageBody: '{"kind":"welcome","applicationId":"a-2"}' },
          { Id: '1', MessageBody: '{"kind":"webhook","applicationId":"a-2"}' },
          { Id: 'large', MessageBody: 'x'.repeat(200_000) },
          {
            Id: 'binary',
            MessageBody: 'b',
            MessageAttributes: { a: { DataType: 'Binary', BinaryValue: new Uint8Array([1]) } },
          },
        ],
      }),
    );
    expect(result.Successful?.map((s) => s.Id)).toEqual(['0', '1', 'large']);
    expect(result.Failed).toEqual([
      expect.objectContaining({ Id: 'binary', SenderFault: true, Code: 'InvalidParameterValue' }),
    ]);

    const attributes = await client.send(
      new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['All'] }),
    );
    expect(attributes.Attributes).toMatchObject({
      ApproximateNumberOfMessages: '3',
      ApproximateNumberOfMessagesNotVisible: '0',
    });

    queue.start();
    await queue.drain(2000);
    expect(events.flatMap((e) => e.Records.map((r) => r.body.slice(0, 40)))).toEqual([
      '{"kind":"welcome","applicationId":"a-2"}',
      '{"kind":"webhook","applicationId":"a-2"}',
      'x'.repeat(40),
    ]);
  });

  it('refuses a batch whose total is over 256 KiB, and one with repeated ids', async () => {
    const { client, queueUrl } = await setup();
    const big = 'x'.repeat(140_000);
    await expect(
      client.send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: [
            { Id: 'a', MessageBody: big },
            { Id: 'b', MessageBody: big },
          ],
        }),
      ),
    ).rejects.toMatchObject({ name: 'BatchRequestTooLong' });
    await expect(
      client.send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: [
            { Id: 'a', MessageBody: '1' },
            { Id: 'a', MessageBody: '2' },
          ],
        }),
      ),
    ).rejects.toMatchObject({ name: 'BatchEntryIdsNotDistinct' });
  });

  it('answers QueueDoesNotExist for an unknown queue, as SQS does', async () => {
    const { client, endpoint } = await setup();
    const error = await client
      .send(new SendMessageCommand({ QueueUrl: endpoint.queueUrl('missing'), MessageBody: 'x' }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueueDoesNotExist);
    expect(error).toMatchObject({ name: 'QueueDoesNotExist', $metadata: { httpStatusCode: 400 } });
    await expect(client.send(new GetQueueUrlCommand({ QueueName: 'missing' }))).rejects.toBeInstanceOf(
      QueueDoesNotExist,
    );
  });

  it('lets the consumer set the retry delay of a failing message with ChangeMessageVisibility', async () => {
    const receives: number[] = [];
    // The queue's own backoff would bring the message back after 20 ms; the consumer asks for 1 s.
    const { queue, client, queueUrl } = await setup(async (event): Promise<SQSBatchResponse> => {
      const [record] = event.Records;
      receives.push(Date.now());
      if (receives.length === 1) {
        await client.send(
          new ChangeMessageVisibilityCommand({
            QueueUrl: queueUrl,
            ReceiptHandle: record!.receiptHandle,
            VisibilityTimeout: 1,
          }),
        );
        return { batchItemFailures: [{ itemIdentifier: record!.messageId }] };
      }
      return { batchItemFailures: [] };
    });
    await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'retry me' }));
    queue.start();
    await queue.drain(5000);
    expect(receives).toHaveLength(2);
    expect(receives[1]! - receives[0]!).toBeGreaterThanOrEqual(950);
  });

  it('refuses ChangeMessageVisibility for an unknown receipt handle', async () => {
    const { client, queueUrl } = await setup();
    await expect(
      client.send(
        new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: 'nope', VisibilityTimeout: 5 }),
      ),
    ).rejects.toBeInstanceOf(ReceiptHandleIsInvalid);
  });
});

describe("the functions' SQS adapters (lambdas/adapters/outbound-queue.ts, AWS JSON over fetch) against the endpoint", () => {
  const local = (queueUrl: string) =>
    makeSqsClient({ APP_MODE: 'local', AWS_REGION: 'ap-south-1', OUTBOUND_QUEUE_URL: queueUrl });
  const welcomes = (n: number): Extract<OutboundMessage, { kind: 'welcome' }>[] =>
    Array.from({ length: n }, (_, i) => ({ kind: 'welcome', applicationId: `a-${i}` }));

  it('lands every message of a send (batches of ten) with its delay and throttle attribute', async () => {
    const { queue, queueUrl, events } = await setup();
    await makeSqsOutboundQueue(local(queueUrl), queueUrl).send(welcomes(12), { delaySeconds: 0, throttleAttempt: 2 });
    queue.start();
    await queue.drain(2000);
    const records = events.flatMap((e) => e.Records);
    expect(records.map((r) => (JSON.parse(r.body) as { applicationId: string }).applicationId).sort()).toEqual(
      welcomes(12)
        .map((m) => m.applicationId)
        .sort(),
    );
    expect(records[0]?.messageAttributes[THROTTLE_ATTEMPT_ATTRIBUTE]).toMatchObject({ stringValue: '2' });
  });

  it('names the messages of a queue that refused them', async () => {
    const { endpoint } = await setup();
    const missing = endpoint.queueUrl('missing');
    const error = await makeSqsOutboundQueue(local(missing), missing)
      .send(welcomes(2))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundQueueError);
    expect((error as OutboundQueueError).failed).toEqual(welcomes(2));
  });

  it("changes a received message's visibility by its queue ARN, and surfaces SQS's error name", async () => {
    const receives: number[] = [];
    const { queue, client, queueUrl, endpoint } = await setup(async (event): Promise<SQSBatchResponse> => {
      const [record] = event.Records;
      receives.push(Date.now());
      if (receives.length > 1) return { batchItemFailures: [] };
      await visibility.change(record!, 1);
      return { batchItemFailures: [{ itemIdentifier: record!.messageId }] };
    });
    const visibility = makeSqsVisibility(local(queueUrl), endpoint.url);
    await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'retry me' }));
    queue.start();
    await queue.drain(5000);
    expect(receives).toHaveLength(2);
    expect(receives[1]! - receives[0]!).toBeGreaterThanOrEqual(950);
    const record = { eventSourceARN: queue.arn, receiptHandle: 'nope' } as Parameters<typeof visibility.change>[0];
    await expect(visibility.change(record, 5)).rejects.toMatchObject({
      name: 'ReceiptHandleIsInvalid',
      $metadata: { httpStatusCode: 404 },
    });
  });
});
