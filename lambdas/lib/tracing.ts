import { Tracer } from '@aws-lambda-powertools/tracer';

// X-Ray subsegments for AWS SDK calls (and outgoing HTTPS), under the segment that active
// tracing gives each sampled invocation (lib/constructs/project-function.ts). The tracer
// is off outside Lambda and where the stage turns tracing off (POWERTOOLS_TRACE_ENABLED).
//
// Only the staff and background functions import this module: it costs a cold start
// about 20 ms of CPU (`npm run bench -- lambda`, README "Performance"), and the public
// functions' cold starts are what a rally's visitors wait for. Their X-Ray segments still
// show each invocation's init and duration; DynamoDB's own latency and throttle metrics
// (the dashboard) stand in for their SDK subsegments.
const tracer = new Tracer({ serviceName: 'membership' });

/** The client, with a subsegment for each of its calls when tracing is on. */
export function traced<T extends object>(client: T): T {
  return tracer.captureAWSv3Client(client);
}
