import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import * as smsvoice from 'aws-cdk-lib/aws-smsvoice';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { resourcePrefix, type StageConfig } from '../stages';
import type { Alarms } from './alarms';
import type { ProjectFunction } from './project-function';

export interface SmsChannelProps {
  readonly config: StageConfig;
  /** The stage's SMS settings (lib/stages.ts `messaging.sms`). */
  readonly sms: NonNullable<StageConfig['messaging']['sms']>;
  readonly alarms: Alarms;
}

/**
 * SMS through AWS End User Messaging SMS: the stage's configuration set, whose event
 * destination publishes every text event to an encrypted SNS topic, to which the
 * sms-events function subscribes. Functions that send get `sms-voice:SendTextMessage` on
 * this configuration set and the stage's sender id, nothing else (grantSend).
 *
 * The sender id itself is registered by the operator (README, "SMS under DLT"): a
 * registered sender id cannot be created by CloudFormation.
 */
export class SmsChannel extends Construct {
  public readonly configurationSet: smsvoice.CfnConfigurationSet;
  /** The physical name, which SendTextMessage's ConfigurationSetName takes. */
  public readonly configurationSetName: string;
  /** `arn:aws:sms-voice:<region>:<account>:configuration-set/<name>` */
  public readonly configurationSetArn: string;
  /** `arn:aws:sms-voice:<region>:<account>:sender-id/<SenderId>/<IsoCountryCode>` */
  public readonly senderIdArn: string;
  public readonly topic: sns.Topic;
  public readonly key: kms.Key;
  /** Events the consumer failed on after Lambda's own retries. */
  public readonly deadLetterQueue: sqs.Queue;
  private readonly alarms: Alarms;

  constructor(scope: Construct, id: string, props: SmsChannelProps) {
    super(scope, id);
    const { config, sms } = props;
    const stack = Stack.of(this);
    this.configurationSetName = `${resourcePrefix(config)}-sms`;
    // Built from the name, not the resource: the topic's and key's policies must exist
    // before the configuration set's event destination is created against them.
    this.configurationSetArn = stack.formatArn({
      service: 'sms-voice',
      resource: 'configuration-set',
      resourceName: this.configurationSetName,
    });
    this.senderIdArn = stack.formatArn({
      service: 'sms-voice',
      resource: 'sender-id',
      resourceName: `${sms.originationIdentity}/${sms.isoCountryCode}`,
    });
    const fromThisConfigurationSet = {
      StringEquals: { 'aws:SourceAccount': stack.account },
      ArnLike: { 'aws:SourceArn': this.configurationSetArn },
    };

    // End User Messaging SMS publishes to an encrypted topic only with a customer managed
    // key whose policy lets it (the AWS managed SNS key's policy cannot be changed).
    this.key = new kms.Key(this, 'TopicKey', {
      description: `Membership ${config.stage}: encrypts the SMS delivery events topic`,
      enableKeyRotation: true,
      removalPolicy: config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      pendingWindow: Duration.days(7),
    });
    this.key.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'SmsVoicePublishesEncrypted',
        principals: [new iam.ServicePrincipal('sms-voice.amazonaws.com')],
        actions: ['kms:GenerateDataKey*', 'kms:Decrypt'],
        // A key policy's own key.
        resources: ['*'],
        conditions: fromThisConfigurationSet,
      }),
    );

    this.topic = new sns.Topic(this, 'EventsTopic', {
      displayName: `Membership ${config.stage} SMS delivery events`,
      masterKey: this.key,
      enforceSSL: true,
    });
    const publish = this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'SmsVoicePublishes',
        principals: [new iam.ServicePrincipal('sms-voice.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: fromThisConfigurationSet,
      }),
    );

    this.configurationSet = new smsvoice.CfnConfigurationSet(this, 'ConfigurationSet', {
      configurationSetName: this.configurationSetName,
      defaultSenderId: sms.originationIdentity,
      eventDestinations: [
        {
          eventDestinationName: 'delivery-events',
          enabled: true,
          // Every text event: the consumer records the ones that change a status and ignores the rest.
          matchingEventTypes: ['TEXT_ALL'],
          snsDestination: { topicArn: this.topic.topicArn },
        },
      ],
    });
    if (publish.policyDependable) this.configurationSet.node.addDependency(publish.policyDependable);
    this.configurationSet.node.addDependency(this.key);

    this.alarms = props.alarms;
    // Lambda retries an SNS (asynchronous) invocation twice; what still fails waits here.
    this.deadLetterQueue = new sqs.Queue(this, 'EventsDeadLetterQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This is the on-failure destination of the sms-events function; it alarms on its first message and needs no DLQ of its own.',
    });
  }

  /** The function that records the delivery events (lambdas/handlers/sms-events.ts, an SNSEvent handler). */
  addEventsConsumer(eventsConsumer: ProjectFunction): void {
    const consumer = eventsConsumer.function;
    consumer.configureAsyncInvoke({
      retryAttempts: 2,
      maxEventAge: Duration.hours(6),
      onFailure: new SqsDestination(this.deadLetterQueue),
    });
    this.topic.addSubscription(new subscriptions.LambdaSubscription(consumer));
    this.alarms.alarmOnDeadLetters(
      'SmsEventsDeadLetters',
      'sms-events-dead-letters',
      this.deadLetterQueue,
      `SMS delivery events failed in the sms-events function three times and wait in its dead-letter queue: those messages keep their last status. Read the function's log for the cause first.`,
    );
  }

  /**
   * `sms-voice:SendTextMessage` on the stage's configuration set and sender id only.
   * SendTextMessage is authorized against each resource a send names (the configuration
   * set and the origination identity), so a send from another sender id, or through
   * another configuration set, is refused.
   */
  grantSend(fn: ProjectFunction): void {
    fn.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'SendSmsFromTheStageSenderId',
        actions: ['sms-voice:SendTextMessage'],
        resources: [this.configurationSetArn, this.senderIdArn],
      }),
    );
  }
}
