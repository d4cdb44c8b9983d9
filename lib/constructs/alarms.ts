import { ArnFormat, Duration, Stack, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { resourcePrefix, type StageConfig } from '../stages';

export interface AlarmsProps {
  readonly config: StageConfig;
}

/** Sections of docs/RUNBOOK.md: each alarm names the one that says what to do. */
export type RunbookSection =
  | 'dead-letters'
  | 'api-errors'
  | 'lambda-errors'
  | 'whatsapp-refuses'
  | 'latency'
  | 'stream-lag'
  | 'delivery-rate'
  | 'whatsapp-tier'
  | 'grievances-due';

export interface StageAlarmProps {
  /** kebab-case; the alarm is named `membership-<stage>-<name>`, which the operator's e-mail shows. */
  readonly name: string;
  /** What it means and what to check first; the runbook link is appended. */
  readonly description: string;
  readonly runbook: RunbookSection;
  readonly metric: cloudwatch.IMetric;
  readonly threshold: number;
  /** Defaults to 1. */
  readonly evaluationPeriods?: number;
  /** Defaults to evaluationPeriods. */
  readonly datapointsToAlarm?: number;
  /** Defaults to greater than or equal to the threshold. */
  readonly comparisonOperator?: cloudwatch.ComparisonOperator;
}

/**
 * Where the stage's alarms go: one SNS topic, mailed to the operator if configured. Every
 * alarm is named for its stage, says what it means, and links its runbook section; it
 * notifies when it fires and when it clears. No data is no breach: a quiet night is
 * not an incident.
 */
export class Alarms extends Construct {
  public readonly topic: sns.Topic;
  /** Every alarm of the stage, for the dashboard's status panel. */
  public readonly all: cloudwatch.Alarm[] = [];
  private readonly config: StageConfig;

  constructor(scope: Construct, id: string, { config }: AlarmsProps) {
    super(scope, id);
    this.config = config;
    this.topic = new sns.Topic(this, 'Topic', {
      displayName: `Membership ${config.stage} alarms`,
      enforceSSL: true,
    });
    // enforceSSL writes a topic policy holding only its deny-without-TLS statement, and any
    // topic policy replaces SNS's default one: without this statement CloudWatch could not
    // publish, and every alarm would fire into nothing. Only this account's alarms of this
    // stage (the names `add` gives them) may publish.
    const stack = Stack.of(this);
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: {
            'aws:SourceArn': stack.formatArn({
              service: 'cloudwatch',
              resource: 'alarm',
              resourceName: `${resourcePrefix(config)}-*`,
              arnFormat: ArnFormat.COLON_RESOURCE_NAME,
            }),
          },
        },
      }),
    );
    // No alarmEmail is no synth error: the preflight reports a stage without a destination.
    if (config.alarmEmail) this.topic.addSubscription(new subscriptions.EmailSubscription(config.alarmEmail));
    Validations.of(this.topic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason:
        'CloudWatch alarms cannot publish to a topic encrypted with the AWS-managed SNS key, and alarm notifications carry only alarm names and counts (no personal data); a customer-managed KMS key is not worth it here.',
    });
  }

  /** An alarm of this stage, to the topic, with its runbook link. */
  add(id: string, props: StageAlarmProps): cloudwatch.Alarm {
    const evaluationPeriods = props.evaluationPeriods ?? 1;
    const alarm = new cloudwatch.Alarm(this, id, {
      alarmName: `${resourcePrefix(this.config)}-${props.name}`,
      alarmDescription: `Membership ${this.config.stage}: ${props.description} Runbook: ${this.runbookLink(props.runbook)}`,
      metric: props.metric,
      threshold: props.threshold,
      comparisonOperator: props.comparisonOperator ?? cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods,
      datapointsToAlarm: props.datapointsToAlarm ?? evaluationPeriods,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(new actions.SnsAction(this.topic));
    alarm.addOkAction(new actions.SnsAction(this.topic));
    this.all.push(alarm);
    return alarm;
  }

  /** `docs/RUNBOOK.md#<section>`, or under the stage's runbookUrl. */
  runbookLink(section: RunbookSection): string {
    return `${this.config.alarms.runbookUrl}#${section}`;
  }

  /** Alarms as soon as one message sits in a dead-letter queue. */
  alarmOnDeadLetters(id: string, name: string, queue: sqs.IQueue, description: string): cloudwatch.Alarm {
    return this.add(id, {
      name,
      description,
      runbook: 'dead-letters',
      metric: queue.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(1),
        statistic: cloudwatch.Stats.MAXIMUM,
      }),
      threshold: 1,
    });
  }
}
