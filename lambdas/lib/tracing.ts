import { Tracer } from '@aws-lambda-powertools/tracer';
import type { AwsJsonCall } from './aws-json';
import type { Db } from './db';

// X-Ray subsegments for AWS calls (and outgoing HTTPS), under the segment that active
// tracing gives each sampled invocation (lib/constructs/project-function.ts). The tracer
// is off outside Lambda and where the stage turns tracing off (POWERTOOLS_TRACE_ENABLED).
//
// Only the staff and background functions import this module: it costs a cold start
// about 20 ms of CPU (`npm run bench -- lambda`, README "Performance"), and the public
// functions' cold starts are what a rally's visitors wait for. Their X-Ray segments still
// show each invocation's init and duration; DynamoDB's own latency and throttle metrics
// (the dashboard) stand in for their SDK subsegments.
const tracer = new Tracer({ serviceName: 'membership' });

/**
 * The Db (lambdas/lib/db.ts), with a subsegment for each of its requests when tracing is
 * on, as captureAWSv3Client gives the SDK's client one: named `DynamoDB`, and the
 * operation (`GetItem`…) and table in its `aws` data. The same Db, not a copy.
 */
export function tracedDb(db: Db): Db {
  if (tracer.isTracingEnabled()) {
    db.intercept((operation, input, next) => captured('DynamoDB', operation, input, () => next(input)));
  }
  return db;
}

/** An AWS JSON caller (lambdas/lib/aws-json.ts), traced as tracedDb: `service` names its subsegments (`SQS`…). */
export function tracedCall(service: string, call: AwsJsonCall): AwsJsonCall {
  if (!tracer.isTracingEnabled()) return call;
  return <O>(operation: string, input: object) => captured(service, operation, input, () => call<O>(operation, input));
}

type Subsegment = NonNullable<Parameters<Parameters<typeof tracer.provider.captureAsyncFunc>[1]>[0]>;
/** What an AwsServiceError (aws-json.ts) carries that a subsegment records. */
type Failure = Error & { $metadata?: { httpStatusCode?: number; attempts?: number } };

const THROTTLED = /Throttl|ProvisionedThroughputExceeded|RequestLimitExceeded|TooManyRequests|LimitExceeded/;

/** The subsegment's `aws` data, with what the SDK's instrumentation records of these services' requests. */
function awsData(operation: string, input: Record<string, unknown>, attempts = 1) {
  return {
    operation,
    // Lambda's own variable: the region every client of a function is built for.
    ...(process.env.AWS_REGION && { region: process.env.AWS_REGION }),
    retries: attempts - 1,
    ...(typeof input.TableName === 'string' && { table_name: input.TableName }),
    ...(input.RequestItems !== null &&
      typeof input.RequestItems === 'object' && { table_names: Object.keys(input.RequestItems) }),
    ...(typeof input.QueueUrl === 'string' && { queue_url: input.QueueUrl }),
  };
}

/**
 * One call in a subsegment of its own, the active one while the call runs (so that the
 * fetch beneath it nests there), with the flags the SDK's instrumentation gives a failure:
 * throttle, error for 4xx, and the exception (which X-Ray counts a fault, for 4xx too, as
 * with the SDK's clients). Without a segment (no invocation) the call runs untraced.
 */
function captured<T>(service: string, operation: string, input: object, call: () => Promise<T>): Promise<T> {
  const fields = input as Record<string, unknown>;
  return tracer.provider.captureAsyncFunc(service, async (subsegment?: Subsegment) => {
    if (!subsegment) return call();
    subsegment.addAttribute('namespace', 'aws');
    try {
      const output = await call();
      subsegment.addAttribute('aws', awsData(operation, fields));
      subsegment.addAttribute('http', { response: { status: 200 } });
      subsegment.close();
      return output;
    } catch (error) {
      const failure = error as Failure;
      const status = failure.$metadata?.httpStatusCode;
      subsegment.addAttribute('aws', awsData(operation, fields, failure.$metadata?.attempts));
      if (status !== undefined) subsegment.addAttribute('http', { response: { status } });
      if (status === 429 || THROTTLED.test(String(failure.name))) subsegment.addThrottleFlag();
      if (status !== undefined && status >= 500) subsegment.addFaultFlag();
      else if (status !== undefined && status >= 400) subsegment.addErrorFlag();
      subsegment.close(failure instanceof Error ? failure : String(failure), true);
      throw error;
    }
  }) as Promise<T>;
}
