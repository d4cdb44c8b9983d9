import { AwsClient } from 'aws4fetch';

// The AWS services the functions call (DynamoDB, Secrets Manager, SQS, End User
// Messaging SMS, Cognito) all speak the AWS JSON protocol: a POST of the operation's
// input as JSON, named by the X-Amz-Target header, signed with SigV4. This module is
// that protocol over Node's own fetch, signed by aws4fetch, instead of the AWS SDK's
// clients: a cold start then evaluates a few kilobytes, not the SDK's middleware stack
// (`npm run bench -- lambda`, README "Performance"; issue 16).
//
// What it keeps of the SDK's behaviour, because a function relies on it:
// - the standard retry mode: 3 attempts in all, a wait of random(0, min(20 s, 100 ms × 2^n))
//   before the next, for throttling errors, 5xx answers and network errors
//   (https://docs.aws.amazon.com/sdkref/latest/guide/feature-retry-behavior.html);
// - an error's `name` is the service's error type (`ConditionalCheckFailedException`,
//   `ResourceNotFoundException`…), read from `__type`, `code` or `x-amzn-ErrorType`, and the
//   error carries the answer's other fields (`CancellationReasons`, `Item`…) as the SDK's do;
//   `$metadata.httpStatusCode` and `$retryable` as well;
// - credentials from the environment Lambda gives a function (AWS_ACCESS_KEY_ID,
//   AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), read on each call so that none is cached
//   past its rotation.

interface AwsCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
}

export interface AwsJsonOptions {
  /** The signing name: dynamodb, secretsmanager, sqs, sms-voice, cognito-idp. */
  readonly service: string;
  /** The X-Amz-Target prefix: DynamoDB_20120810, secretsmanager, AmazonSQS… */
  readonly targetPrefix: string;
  readonly jsonVersion: '1.0' | '1.1';
  readonly region: string;
  /** A local stand-in's address; the service's regional endpoint when absent. */
  readonly endpoint?: string;
  /**
   * Fixed credentials (local stand-ins), or a provider asked before each request (the
   * operator's commands pass the SDK's credential chain); the environment's when absent.
   */
  readonly credentials?: AwsCredentials | (() => Promise<AwsCredentials>);
  readonly maxAttempts?: number;
  /** Tests: a fetch that fails as a network would, and no real waits. */
  readonly fetch?: typeof fetch;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** One call of an AWS JSON service: the operation's name and its input, its output as parsed JSON. */
export type AwsJsonCall = <O = Record<string, unknown>>(operation: string, input: object) => Promise<O>;

/** An error as a service answered it, shaped as the SDK's service exceptions are. */
export class AwsServiceError extends Error {
  readonly $metadata: { readonly httpStatusCode?: number; readonly attempts: number };
  readonly $retryable: boolean;
  readonly $fault: 'client' | 'server';
  [field: string]: unknown;

  constructor(name: string, message: string, status: number | undefined, attempts: number, fields: object = {}) {
    super(message);
    Object.assign(this, fields);
    this.name = name;
    this.$metadata = { httpStatusCode: status, attempts };
    this.$fault = status !== undefined && status < 500 ? 'client' : 'server';
    this.$retryable = isRetryable(name, status);
  }
}

const THROTTLING = new Set([
  'ThrottlingException',
  'Throttling',
  'ThrottledException',
  'RequestThrottledException',
  'TooManyRequestsException',
  'ProvisionedThroughputExceededException',
  'TransactionInProgressException',
  'RequestLimitExceeded',
  'BandwidthLimitExceeded',
  'LimitExceededException',
  'RequestThrottled',
  'SlowDown',
  'EC2ThrottledException',
]);
const TRANSIENT = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException', 'InternalServerError']);

function isRetryable(name: string, status: number | undefined): boolean {
  if (THROTTLING.has(name) || TRANSIENT.has(name)) return true;
  return status === undefined || status === 429 || status >= 500;
}

/** The error type without its namespace (`com.amazonaws.dynamodb.v20120810#X` → `X`) or suffix (`X:http://…`). */
function errorName(raw: string): string {
  return raw.split('#').pop()!.split(':')[0]!.trim();
}

function fromEnvironment(): AwsCredentials {
  const accessKeyId = process.env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = process.env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) {
    throw new AwsServiceError('CredentialsProviderError', 'No AWS credentials in the environment', 400, 0);
  }
  return { accessKeyId, secretAccessKey, sessionToken: process.env.AWS_SESSION_TOKEN || undefined };
}

async function parseError(response: Response, attempts: number): Promise<AwsServiceError> {
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = {};
  }
  const raw =
    (typeof body.__type === 'string' && body.__type) ||
    (typeof body.code === 'string' && body.code) ||
    response.headers.get('x-amzn-errortype') ||
    response.headers.get('x-amzn-query-error')?.split(';')[0] ||
    `HTTP${response.status}`;
  const said = body.message ?? body.Message;
  const name = errorName(raw);
  const message = typeof said === 'string' ? said : `${name} (HTTP ${response.status})`;
  const { __type: _type, message: _m, Message: _M, ...fields } = body;
  return new AwsServiceError(name, message, response.status, attempts, fields);
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A caller of one AWS JSON service. Build it once per container; it holds no connection of its own. */
export function awsJson(options: AwsJsonOptions): AwsJsonCall {
  const url = options.endpoint ?? `https://${options.service}.${options.region}.amazonaws.com/`;
  const maxAttempts = options.maxAttempts ?? 3;
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? defaultSleep;
  const contentType = `application/x-amz-json-${options.jsonVersion}`;

  const attempt = async (operation: string, body: string, attempts: number): Promise<Response> => {
    const given = options.credentials;
    const credentials = typeof given === 'function' ? await given() : (given ?? fromEnvironment());
    const signer = new AwsClient({ ...credentials, service: options.service, region: options.region, retries: 0 });
    const request = await signer.sign(url, {
      method: 'POST',
      headers: { 'content-type': contentType, 'x-amz-target': `${options.targetPrefix}.${operation}` },
      body,
    });
    try {
      return await doFetch(request);
    } catch (error) {
      const cause = error as { name?: string; message?: string; cause?: { code?: string } };
      const name = cause.name === 'TimeoutError' || cause.name === 'AbortError' ? 'TimeoutError' : 'NetworkError';
      throw new AwsServiceError(name, cause.cause?.code ?? cause.message ?? 'fetch failed', undefined, attempts);
    }
  };

  return async <O>(operation: string, input: object): Promise<O> => {
    const body = JSON.stringify(input);
    for (let attempts = 1; ; attempts++) {
      let failure: AwsServiceError;
      try {
        const response = await attempt(operation, body, attempts);
        if (response.ok) {
          const text = await response.text();
          return (text ? JSON.parse(text) : {}) as O;
        }
        failure = await parseError(response, attempts);
      } catch (error) {
        if (!(error instanceof AwsServiceError)) throw error;
        failure = error;
      }
      if (!failure.$retryable || attempts >= maxAttempts) throw failure;
      await sleep(Math.random() * Math.min(20_000, 100 * 2 ** (attempts - 1)));
    }
  };
}
