import { Duration, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { StageConfig } from '../stages';
import type { Alarms } from './alarms';
import type { ProjectFunction } from './project-function';

export interface ApplicationsStreamProps {
  readonly config: StageConfig;
  readonly alarms: Alarms;
  readonly applicationsTable: dynamodb.ITable;
  readonly consumer: ProjectFunction;
}

/**
 * The applications table's stream feeding the rollups consumer. A batch that keeps
 * failing is halved until the bad record is isolated; its description lands in an
 * on-failure queue (with an alarm) instead of blocking the shard.
 */
export class ApplicationsStream extends Construct {
  public readonly failureQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: ApplicationsStreamProps) {
    super(scope, id);
    const { config } = props;

    this.failureQueue = new sqs.Queue(this, 'FailureQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.failureQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is itself the dead-letter (on-failure) destination of the applications stream consumer; it alarms on its first message.',
    });

    props.consumer.function.addEventSource(
      new DynamoEventSource(props.applicationsTable, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        retryAttempts: 5,
        maxRecordAge: Duration.hours(24),
        onFailure: new SqsDlq(this.failureQueue),
      }),
    );

    Validations.of(props.consumer.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'dynamodb:ListStreams, added by the DynamoDB event source, supports no resource-level permission; every other stream action is scoped to this stream.',
    });

    props.alarms.alarmOnDeadLetters(
      'StreamFailures',
      'stream-dead-letters',
      this.failureQueue,
      `applications stream records could not be counted and sit in the stream's on-failure queue; report totals may be off. First read the stream consumer's log for the error; once it is fixed, npm run rollups:rebuild -- --stage ${config.stage}.`,
    );
  }
}
