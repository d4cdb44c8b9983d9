import { describe, expect, it } from 'vitest';
import { AwsServiceError, awsJson } from './aws-json';

// The transport's own behaviour, with a fetch that answers as the services do, fails as a
// network does, and counts: what DynamoDB Local and the sandboxes never do on demand.
// The protocol against a real server is test/integration/db.test.ts.

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', sessionToken: 'token' };

function fakeFetch(...answers: (Response | Error)[]) {
  const requests: Request[] = [];
  const fetch = async (input: RequestInfo | URL) => {
    requests.push(input as Request);
    const answer = answers.shift() ?? new Response('{}');
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { fetch, requests };
}

const json = (body: object, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/x-amz-json-1.0', ...headers } });

const dynamo = (fake: ReturnType<typeof fakeFetch>, sleeps: number[] = []) =>
  awsJson({
    service: 'dynamodb',
    targetPrefix: 'DynamoDB_20120810',
    jsonVersion: '1.0',
    region: 'ap-south-1',
    credentials,
    fetch: fake.fetch,
    sleep: async (ms) => void sleeps.push(ms),
  });

describe('AWS JSON transport: requests and errors', () => {
  it('posts the input to the regional endpoint, named by X-Amz-Target and signed with SigV4', async () => {
    const fake = fakeFetch(json({ Item: { pk: { S: 'a' } } }));
    const output = await dynamo(fake)('GetItem', { TableName: 't', Key: { pk: { S: 'a' } } });
    expect(output).toEqual({ Item: { pk: { S: 'a' } } });
    const [request] = fake.requests;
    expect(request!.url).toBe('https://dynamodb.ap-south-1.amazonaws.com/');
    expect(request!.method).toBe('POST');
    expect(request!.headers.get('x-amz-target')).toBe('DynamoDB_20120810.GetItem');
    expect(request!.headers.get('content-type')).toBe('application/x-amz-json-1.0');
    expect(request!.headers.get('x-amz-security-token')).toBe('token');
    expect(request!.headers.get('authorization')).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/ap-south-1\/dynamodb\/aws4_request, SignedHeaders=.*x-amz-target.*, Signature=[0-9a-f]{64}$/,
    );
    expect(await request!.json()).toEqual({ TableName: 't', Key: { pk: { S: 'a' } } });
  });

  it("names an error by the service's type and keeps the answer's fields, without retrying a client error", async () => {
    const fake = fakeFetch(
      json(
        {
          __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
          message: 'Transaction cancelled',
          CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }],
        },
        400,
      ),
    );
    const error = (await dynamo(fake)('TransactWriteItems', {}).catch((e: unknown) => e)) as AwsServiceError;
    expect(error).toBeInstanceOf(AwsServiceError);
    expect(error.name).toBe('TransactionCanceledException');
    expect(error.message).toBe('Transaction cancelled');
    expect(error.CancellationReasons).toEqual([{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }]);
    expect(error.$metadata).toEqual({ httpStatusCode: 400, attempts: 1 });
    expect(error.$retryable).toBe(false);
    expect(fake.requests).toHaveLength(1);
  });

  it('reads the type from x-amzn-ErrorType when the body has none', async () => {
    const fake = fakeFetch(
      new Response('', {
        status: 404,
        headers: { 'x-amzn-ErrorType': 'ResourceNotFoundException:http://internal.amazon.com/' },
      }),
    );
    await expect(dynamo(fake)('DescribeTable', {})).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
      message: 'ResourceNotFoundException (HTTP 404)',
    });
  });

});

describe('AWS JSON transport: retries and credentials', () => {
  it('retries a throttle, a 5xx and a network failure as the SDK does, then answers', async () => {
    const sleeps: number[] = [];
    const fake = fakeFetch(
      json({ __type: 'ProvisionedThroughputExceededException', message: 'slow down' }, 400),
      new TypeError('fetch failed'),
      json({ Count: 0 }),
    );
    expect(await dynamo(fake, sleeps)('Query', {})).toEqual({ Count: 0 });
    expect(fake.requests).toHaveLength(3);
    // Full jitter: a wait below 100 ms, then below 200 ms.
    expect(sleeps).toHaveLength(2);
    expect(sleeps[0]).toBeLessThan(100);
    expect(sleeps[1]).toBeLessThan(200);
  });

  it('gives up after three attempts with the last error', async () => {
    const fake = fakeFetch(
      json({ __type: 'InternalServerError' }, 500),
      json({ __type: 'InternalServerError' }, 500),
      new Response('<html>Bad gateway</html>', { status: 502 }),
      json({}),
    );
    await expect(dynamo(fake)('PutItem', {})).rejects.toMatchObject({
      name: 'HTTP502',
      $metadata: { httpStatusCode: 502, attempts: 3 },
      $retryable: true,
    });
    expect(fake.requests).toHaveLength(3);
  });

  it('fails at once, without a request, when the environment has no credentials', async () => {
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, key: process.env.AWS_SECRET_ACCESS_KEY };
    delete process.env.AWS_ACCESS_KEY_ID;
    delete process.env.AWS_SECRET_ACCESS_KEY;
    try {
      const fake = fakeFetch();
      const call = awsJson({
        service: 'sqs',
        targetPrefix: 'AmazonSQS',
        jsonVersion: '1.0',
        region: 'ap-south-1',
        fetch: fake.fetch,
      });
      await expect(call('SendMessageBatch', {})).rejects.toMatchObject({ name: 'CredentialsProviderError' });
      expect(fake.requests).toHaveLength(0);
    } finally {
      if (saved.id) process.env.AWS_ACCESS_KEY_ID = saved.id;
      if (saved.key) process.env.AWS_SECRET_ACCESS_KEY = saved.key;
    }
  });

  it("reads Lambda's credentials from the environment on each call, so a rotation is seen", async () => {
    const saved = { ...process.env };
    try {
      const fake = fakeFetch(json({}), json({}));
      const call = awsJson({
        service: 'sqs',
        targetPrefix: 'AmazonSQS',
        jsonVersion: '1.0',
        region: 'ap-south-1',
        fetch: fake.fetch,
      });
      Object.assign(process.env, {
        AWS_ACCESS_KEY_ID: 'AKIDFIRST',
        AWS_SECRET_ACCESS_KEY: 's1',
        AWS_SESSION_TOKEN: 't1',
      });
      await call('SendMessageBatch', {});
      Object.assign(process.env, {
        AWS_ACCESS_KEY_ID: 'AKIDSECOND',
        AWS_SECRET_ACCESS_KEY: 's2',
        AWS_SESSION_TOKEN: 't2',
      });
      await call('SendMessageBatch', {});
      expect(fake.requests.map((r) => r.headers.get('authorization')?.match(/Credential=(\w+)/)?.[1])).toEqual([
        'AKIDFIRST',
        'AKIDSECOND',
      ]);
      expect(fake.requests[1]!.headers.get('x-amz-security-token')).toBe('t2');
    } finally {
      process.env = saved;
    }
  });
});
