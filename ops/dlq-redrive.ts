// `npm run dlq:redrive -- [--stage NAME] [--dry-run]`: moves the outbound queue's dead
// letters (welcome messages and webhooks that kept failing) back to the queue, where
// they are delivered again. Delivery is idempotent: nothing already sent is sent twice.
import { parseArgs } from 'node:util';
import { GetQueueAttributesCommand, ListMessageMoveTasksCommand, SQSClient, StartMessageMoveTaskCommand } from '@aws-sdk/client-sqs';
import { clientOptions, resolveTarget, type Target } from './target';
import { runCommand } from './cli';


export interface RedriveResult {
  readonly waiting: number;
  readonly moved?: number;
}

export async function redriveDeadLetters(target: Target, sqs: SQSClient, options: { dryRun: boolean }): Promise<RedriveResult> {
  const attributes = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: target.outboundDeadLetterQueueUrl,
      AttributeNames: ['QueueArn', 'ApproximateNumberOfMessages'],
    }),
  );
  const waiting = Number(attributes.Attributes?.ApproximateNumberOfMessages ?? 0);
  const arn = attributes.Attributes?.QueueArn;
  if (options.dryRun || waiting === 0 || !arn) return { waiting };
  const task = await sqs.send(new StartMessageMoveTaskCommand({ SourceArn: arn }));
  // SQS moves in the background; follow the task until it is done (a few seconds for a
  // few thousand messages).
  for (let i = 0; i < 120; i++) {
    const list = await sqs.send(new ListMessageMoveTasksCommand({ SourceArn: arn, MaxResults: 10 }));
    const mine = list.Results?.find((r) => r.TaskHandle === task.TaskHandle) ?? list.Results?.[0];
    if (mine?.Status === 'COMPLETED') return { waiting, moved: Number(mine.ApproximateNumberOfMessagesMoved ?? 0) };
    if (mine?.Status === 'FAILED' || mine?.Status === 'CANCELLED') {
      throw new Error(`The move task ${mine.Status.toLowerCase()}: ${mine.FailureReason ?? 'no reason given'}`);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error('The move task is still running after 2 minutes; check it in the SQS console.');
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { stage: { type: 'string' }, 'dry-run': { type: 'boolean' } } });
  const target = await resolveTarget(values.stage);
  const sqs = new SQSClient(clientOptions(target, target.local ? new URL(target.outboundQueueUrl).origin : undefined));
  try {
    const dryRun = values['dry-run'] ?? false;
    const result = await redriveDeadLetters(target, sqs, { dryRun });
    if (dryRun || result.moved === undefined) {
      process.stdout.write(`${result.waiting} message(s) in the dead-letter queue of ${target.name}.${dryRun ? ' Dry run: nothing moved.' : ''}\n`);
    } else {
      process.stdout.write(`Moved ${result.moved} message(s) back to the outbound queue of ${target.name}; they are being delivered.\n`);
    }
    return 0;
  } finally {
    sqs.destroy();
  }
}

runCommand(import.meta.url, main);
