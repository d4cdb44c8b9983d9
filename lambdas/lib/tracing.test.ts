import AWSXRay from 'aws-xray-sdk-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AwsJsonCall, AwsServiceError } from './aws-json';
import { dbOver, GetCommand, PutCommand } from './db';
import type * as Tracing from './tracing';

// tracedDb and tracedCall against a segment of the X-Ray SDK's own, as Lambda's active
// tracing gives each invocation one: the module is loaded as in Lambda (tracing on), or
// with the stage's POWERTOOLS_TRACE_ENABLED=false. Nothing is sent: the segment is never closed.

async function loadTracing(env: Record<string, string>): Promise<typeof Tracing> {
  vi.resetModules();
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  return import('./tracing');
}

const inLambda = { AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', AWS_REGION: 'ap-south-1' };

afterEach(() => vi.unstubAllEnvs());

/** Runs `work` with a fresh segment as the invocation's, and answers the segment. */
async function inSegment(work: () => Promise<unknown>): Promise<AWSXRay.Segment> {
  const segment = new AWSXRay.Segment('outbound-consumer');
  await AWSXRay.getNamespace().runPromise(async () => {
    AWSXRay.setSegment(segment);
    await work();
  });
  return segment;
}

/** What X-Ray would receive of a subsegment. */
const sent = (subsegment: AWSXRay.Subsegment) => JSON.parse(JSON.stringify(subsegment)) as Record<string, unknown>;

/** A service that answers each operation as `answers` says, throwing an AwsServiceError for a status. */
function fakeService(answers: Record<string, object | AwsServiceError>) {
  const seen: string[] = [];
  /** The active sub/segment's name during each call: where a fetch beneath it would nest. */
  const active: (string | undefined)[] = [];
  const call = (async (operation: string) => {
    seen.push(operation);
    active.push(AWSXRay.getNamespace().get('segment') ? AWSXRay.getSegment()?.name : undefined);
    const answer = answers[operation];
    if (answer instanceof AwsServiceError) throw answer;
    return answer ?? {};
  }) as AwsJsonCall;
  return { call, seen, active };
}

const conditionFailed = new AwsServiceError(
  'ConditionalCheckFailedException',
  'The conditional request failed',
  400,
  1,
);

describe('tracedDb with tracing on', () => {
  it('opens one DynamoDB subsegment per request, named as the SDK names it, with the operation and table', async () => {
    const { tracedDb } = await loadTracing(inLambda);
    const { call, active } = fakeService({ GetItem: { Item: { id: { S: 'k' }, status: { S: 'COMPLETED' } } } });
    const db = tracedDb(dbOver(call));
    let read: unknown;
    const segment = await inSegment(async () => {
      read = await db.send(new GetCommand({ TableName: 'it-idempotency', Key: { id: 'k' } }));
      await db.send(new PutCommand({ TableName: 'it-idempotency', Item: { id: 'k' } }));
    });

    expect(read).toEqual({ $metadata: {}, Item: { id: 'k', status: 'COMPLETED' } });
    expect(active).toEqual(['DynamoDB', 'DynamoDB']);
    const subsegments = (segment.subsegments ?? []).map(sent);
    expect(subsegments).toHaveLength(2);
    expect(subsegments.map((s) => s.name)).toEqual(['DynamoDB', 'DynamoDB']);
    expect(subsegments[0]).toMatchObject({
      namespace: 'aws',
      aws: { operation: 'GetItem', region: 'ap-south-1', table_name: 'it-idempotency', retries: 0 },
      http: { response: { status: 200 } },
    });
    expect(subsegments[1]).toMatchObject({ aws: { operation: 'PutItem' } });
    for (const s of subsegments) {
      expect(s.end_time).toBeTypeOf('number');
      expect(s).not.toHaveProperty('in_progress');
      expect(s).not.toHaveProperty('error');
      expect(s).not.toHaveProperty('fault');
    }
  });

  it('marks a request the service refused with the error flag and its exception, and still throws it', async () => {
    const { tracedDb } = await loadTracing(inLambda);
    const db = tracedDb(dbOver(fakeService({ PutItem: conditionFailed }).call));
    let thrown: unknown;
    const segment = await inSegment(async () => {
      thrown = await db
        .send(new PutCommand({ TableName: 'it-idempotency', Item: { id: 'k' }, ConditionExpression: 'x' }))
        .catch((error: unknown) => error);
    });

    expect(thrown).toBe(conditionFailed);
    const [subsegment] = (segment.subsegments ?? []).map(sent);
    expect(subsegment).toMatchObject({
      name: 'DynamoDB',
      aws: { operation: 'PutItem', table_name: 'it-idempotency' },
      http: { response: { status: 400 } },
      error: true,
      // The exception makes it a fault as well, as the SDK's instrumentation records one.
      fault: true,
      cause: { exceptions: [{ type: 'ConditionalCheckFailedException', remote: true }] },
    });
    expect(subsegment).not.toHaveProperty('throttle');
  });

  it('marks throttling, and a 5xx answer as a fault, with the attempts made as retries', async () => {
    const { tracedDb } = await loadTracing(inLambda);
    const throttled = new AwsServiceError('ProvisionedThroughputExceededException', 'slow down', 400, 3);
    const unavailable = new AwsServiceError('InternalServerError', 'oops', 500, 3);
    const db = tracedDb(dbOver(fakeService({ GetItem: throttled, PutItem: unavailable }).call));
    const segment = await inSegment(async () => {
      await db.send(new GetCommand({ TableName: 't', Key: { id: 'k' } })).catch(() => undefined);
      await db.send(new PutCommand({ TableName: 't', Item: { id: 'k' } })).catch(() => undefined);
    });

    const [get, put] = (segment.subsegments ?? []).map(sent);
    expect(get).toMatchObject({ throttle: true, error: true, aws: { retries: 2 } });
    expect(put).toMatchObject({ fault: true, http: { response: { status: 500 } }, aws: { retries: 2 } });
    expect(put).not.toHaveProperty('throttle');
  });

  it('sends the request untraced when there is no segment (outside an invocation)', async () => {
    const { tracedDb } = await loadTracing(inLambda);
    const { call, seen } = fakeService({ GetItem: { Item: { id: { S: 'k' } } } });
    const db = tracedDb(dbOver(call));
    AWSXRay.setContextMissingStrategy('IGNORE_ERROR'); // Lambda's default logs the missing segment
    try {
      const read = db.send(new GetCommand({ TableName: 't', Key: { id: 'k' } }));
      await expect(read).resolves.toEqual({ $metadata: {}, Item: { id: 'k' } });
    } finally {
      AWSXRay.setContextMissingStrategy('LOG_ERROR');
    }
    expect(seen).toEqual(['GetItem']);
  });
});

describe('tracedDb with tracing off', () => {
  it('adds no interceptor: no subsegment, the same answers', async () => {
    const { tracedDb } = await loadTracing({ ...inLambda, POWERTOOLS_TRACE_ENABLED: 'false' });
    const base = dbOver(fakeService({ GetItem: { Item: { id: { S: 'k' } } } }).call);
    const intercept = vi.spyOn(base, 'intercept');
    const db = tracedDb(base);
    let read: unknown;
    const segment = await inSegment(async () => {
      read = await db.send(new GetCommand({ TableName: 't', Key: { id: 'k' } }));
    });

    expect(db).toBe(base);
    expect(intercept).not.toHaveBeenCalled();
    expect(read).toEqual({ $metadata: {}, Item: { id: 'k' } });
    expect(segment.subsegments ?? []).toEqual([]);
  });
});

describe('tracedCall', () => {
  it('opens a subsegment named for the service per call, with the operation and queue', async () => {
    const { tracedCall } = await loadTracing(inLambda);
    const call = tracedCall('SQS', fakeService({ SendMessage: { MessageId: 'm-1' } }).call);
    let answer: unknown;
    const segment = await inSegment(async () => {
      answer = await call('SendMessage', { QueueUrl: 'http://queue/outbound', MessageBody: '{}' });
    });

    expect(answer).toEqual({ MessageId: 'm-1' });
    const subsegments = (segment.subsegments ?? []).map(sent);
    expect(subsegments).toHaveLength(1);
    expect(subsegments[0]).toMatchObject({
      name: 'SQS',
      namespace: 'aws',
      aws: { operation: 'SendMessage', queue_url: 'http://queue/outbound' },
    });
  });

  it('is the caller itself when tracing is off', async () => {
    const { tracedCall } = await loadTracing({ POWERTOOLS_TRACE_ENABLED: 'false' });
    const { call } = fakeService({});
    expect(tracedCall('SQS', call)).toBe(call);
  });
});
