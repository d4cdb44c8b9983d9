import { describe, expect, it } from 'vitest';
import { makeSqsClient, makeSqsOutboundQueue, type OutboundMessage, OutboundQueueError } from './outbound-queue';

// SQS's JSON protocol as the adapter sends it, against a fake fetch; local/sqs-endpoint.test.ts
// runs the same adapters against the local stand-in.

const queueUrl = 'https://sqs.ap-south-1.amazonaws.com/123456789012/membership-prod-outbound';
const welcomes = (n: number): OutboundMessage[] =>
  Array.from({ length: n }, (_, i) => ({ kind: 'welcome', applicationId: `a-${i}` }));

type Batch = { QueueUrl: string; Entries: { Id: string; MessageBody: string }[] };

/** SQS answering each SendMessageBatch with `answer`; `requests` lists what it was sent. */
function fakeSqs(answer: (batch: Batch, n: number) => Response) {
  const requests: { url: string; target: string | null; contentType: string | null; batch: Batch }[] = [];
  const fetch = async (input: RequestInfo | URL): Promise<Response> => {
    const request = input as Request;
    const batch = (await request.json()) as Batch;
    requests.push({
      url: request.url,
      target: request.headers.get('x-amz-target'),
      contentType: request.headers.get('content-type'),
      batch,
    });
    return answer(batch, requests.length);
  };
  const sqs = makeSqsClient(
    { APP_MODE: 'aws', AWS_REGION: 'ap-south-1', OUTBOUND_QUEUE_URL: queueUrl },
    { fetch, credentials: { accessKeyId: 'test', secretAccessKey: 'test' }, sleep: () => Promise.resolve() },
  );
  return { requests, queue: makeSqsOutboundQueue(sqs, queueUrl) };
}

const json = (status: number, body: object) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/x-amz-json-1.0' } });
const allSent = (batch: Batch) => json(200, { Successful: batch.Entries.map((e) => ({ Id: e.Id })), Failed: [] });

describe('SQS outbound queue', () => {
  it('sends SendMessageBatch in tens to the regional endpoint, the queue URL in the input', async () => {
    const sqs = fakeSqs(allSent);
    await sqs.queue.send(welcomes(23));
    expect(sqs.requests.map((r) => r.batch.Entries.length)).toEqual([10, 10, 3]);
    expect(sqs.requests[0]).toMatchObject({
      url: 'https://sqs.ap-south-1.amazonaws.com/',
      target: 'AmazonSQS.SendMessageBatch',
      contentType: 'application/x-amz-json-1.0',
      batch: { QueueUrl: queueUrl },
    });
    expect(JSON.parse(sqs.requests[2]!.batch.Entries[2]!.MessageBody)).toEqual(welcomes(23)[22]);
  });

  it('tries the entries SQS refused once more, and names those refused twice', async () => {
    const sqs = fakeSqs((batch, n) =>
      json(200, {
        Successful: [],
        Failed: batch.Entries.filter((e) => n === 1 || e.Id === '0').map((e) => ({
          Id: e.Id,
          SenderFault: false,
          Code: 'InternalError',
        })),
      }),
    );
    const error = await sqs.queue.send(welcomes(2)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundQueueError);
    expect((error as OutboundQueueError).failed).toEqual(welcomes(1));
    expect(sqs.requests.map((r) => r.batch.Entries.length)).toEqual([2, 2]);
  });

  it('tries a refused batch once more', async () => {
    const sqs = fakeSqs((batch, n) =>
      n === 1 ? json(400, { __type: 'com.amazonaws.sqs#QueueDoesNotExist', message: 'gone' }) : allSent(batch),
    );
    await sqs.queue.send(welcomes(3));
    expect(sqs.requests).toHaveLength(2);
  });
});
