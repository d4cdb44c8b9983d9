import { Duration, Validations } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { rallyModel } from '../rally-model';
import type { StageConfig } from '../stages';
import type { Alarms } from './alarms';
import type { ProjectFunction } from './project-function';

export interface OutboundMessagingProps {
  readonly config: StageConfig;
  readonly alarms: Alarms;
  /** Timeout of the consumer; the queue's visibility timeout is six times it. */
  readonly consumerTimeout: Duration;
}

/**
 * The outbound queue: every WhatsApp message after the OTP and every webhook call.
 * Failed messages are retried by SQS and land, after maxReceiveCount, in the
 * dead-letter queue, which raises an alarm.
 */
export class OutboundMessaging extends Construct {
  public readonly queue: sqs.Queue;
  public readonly deadLetterQueue: sqs.Queue;
  private readonly config: StageConfig;

  constructor(scope: Construct, id: string, props: OutboundMessagingProps) {
    super(scope, id);
    const { config } = props;
    this.config = config;

    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This is the dead-letter queue of the outbound queue; it alarms on its first message and needs no DLQ of its own.',
    });

    this.queue = new sqs.Queue(this, 'Queue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // Lambda's guidance: at least six times the consumer's timeout, so that a batch
      // being retried by the poller is not handed to a second consumer meanwhile.
      visibilityTimeout: Duration.seconds(props.consumerTimeout.toSeconds() * 6),
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: config.outbound.maxReceiveCount },
    });

    props.alarms.alarmOnDeadLetters(
      'OutboundDeadLetters',
      'outbound-dead-letters',
      this.deadLetterQueue,
      `outbound messages (welcome, decision notice or webhook) failed ${config.outbound.maxReceiveCount} times and wait in the dead-letter queue. First read the outbound consumer's log for the cause (provider down, webhook refusing); once it is fixed, npm run dlq:redrive -- --stage ${config.stage}.`,
    );
  }

  /** Wires the consumer: partial batch failures, so one bad message does not retry the rest. */
  addConsumer(consumer: ProjectFunction): void {
    consumer.function.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: rallyModel.outboundBatchSize,
        reportBatchItemFailures: true,
        // The consumer's send rate: concurrent batches, each sending one message after
        // another, kept inside the channel's rate (docs/CAPACITY.md).
        maxConcurrency: this.config.outbound.maxConcurrency,
      }),
    );
  }
}
