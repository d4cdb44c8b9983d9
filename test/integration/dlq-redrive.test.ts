import { SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testStackConfig } from '../support/test-stack';
import { startLocalStack, type LocalStack } from '../../local/stack';
import { redriveDeadLetters } from '../../ops/dlq-redrive';
import type { Target } from '../../ops/target';
import { goodCaptcha, post, submitBody, uniqueMobile } from '../support/public-flow';

// The runbook's redrive against the local queue: webhooks that died while the automation
// endpoint was down go back to the queue with the real SQS API and are delivered once.
let stack: LocalStack;
let sqs: SQSClient;
let target: Target;

beforeAll(async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';
  stack = await startLocalStack(
    testStackConfig({ LOCAL_PERSISTENCE: 'memory', LOCAL_WEB: 'false', LOCAL_QUEUE_VISIBILITY_MS: '50' }),
  );
  sqs = new SQSClient({ endpoint: new URL(stack.outboundQueueUrl).origin, region: 'ap-south-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
  target = {
    name: 'local',
    region: 'ap-south-1',
    local: true,
    userPoolId: stack.pool.userPoolId,
    userPoolClientId: stack.pool.clientId,
    outboundQueueUrl: stack.outboundQueueUrl,
    outboundDeadLetterQueueUrl: `${stack.outboundQueueUrl}-dlq`,
    tableNames: stack.tableNames,
  };
}, 60_000);
afterAll(async () => {
  sqs?.destroy();
  await stack?.stop();
});

async function submitOne(): Promise<string> {
  const mobile = uniqueMobile();
  await post(stack.apiUrl, '/api/otp/request', { mobile, captchaToken: goodCaptcha });
  const verified = await post(stack.apiUrl, '/api/otp/verify', { mobile, code: stack.whatsApp.latestOtp(`91${mobile}`) });
  const submitted = await post(stack.apiUrl, '/api/applications', submitBody(verified.body.verificationToken as string));
  return submitted.body.id as string;
}

describe('dlq:redrive', () => {
  it('counts in a dry run, then moves the dead letters back and they are delivered once', async () => {
    stack.sink.setDown(true);
    const ids = [await submitOne(), await submitOne()];
    await expect.poll(() => stack.outbound.deadLetters().length, { timeout: 20_000 }).toBe(2);

    expect(await redriveDeadLetters(target, sqs, { dryRun: true })).toEqual({ waiting: 2 });
    expect(stack.outbound.deadLetters()).toHaveLength(2);

    stack.sink.setDown(false);
    expect(await redriveDeadLetters(target, sqs, { dryRun: false })).toEqual({ waiting: 2, moved: 2 });
    await stack.outbound.drain(20_000);
    const delivered = stack.sink.deliveries().map((d) => (d.body as { application_id: string }).application_id);
    expect(delivered.sort()).toEqual([...ids].sort());
    expect(stack.outbound.deadLetters()).toEqual([]);
    expect(await redriveDeadLetters(target, sqs, { dryRun: false })).toEqual({ waiting: 0 });
  }, 60_000);
});
