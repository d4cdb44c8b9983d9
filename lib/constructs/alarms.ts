import { Duration, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { StageConfig } from '../stages';

export interface AlarmsProps {
  readonly config: StageConfig;
}

/** Where the stage's alarms go: one SNS topic, mailed to the operator if configured. */
export class Alarms extends Construct {
  public readonly topic: sns.Topic;

  constructor(scope: Construct, id: string, { config }: AlarmsProps) {
    super(scope, id);
    this.topic = new sns.Topic(this, 'Topic', {
      displayName: `Membership ${config.stage} alarms`,
      enforceSSL: true,
    });
    if (config.alarmEmail) this.topic.addSubscription(new subscriptions.EmailSubscription(config.alarmEmail));
    Validations.of(this.topic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason:
        'CloudWatch alarms cannot publish to a topic encrypted with the AWS-managed SNS key, and alarm notifications carry only alarm names and counts (no personal data); a customer-managed KMS key is not worth it here.',
    });
  }

  /** Alarms as soon as one message sits in a dead-letter queue. */
  alarmOnDeadLetters(id: string, queue: sqs.IQueue, description: string): cloudwatch.Alarm {
    const alarm = new cloudwatch.Alarm(this, id, {
      alarmDescription: description,
      metric: queue.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(1),
        statistic: cloudwatch.Stats.MAXIMUM,
      }),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(new actions.SnsAction(this.topic));
    alarm.addOkAction(new actions.SnsAction(this.topic));
    return alarm;
  }
}
