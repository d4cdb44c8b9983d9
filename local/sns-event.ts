// The event Lambda receives from an SNS subscription, built locally so that the
// `sms-events` function gets what it would get in AWS: one record per notification,
// `EventSource: 'aws:sns'`, the published JSON as the string `Sns.Message`
// (Lambda developer guide, "Using Lambda with Amazon SNS", example event).
import { randomUUID } from 'node:crypto';
import type { SNSEvent } from 'aws-lambda';

export interface SnsTopic {
  readonly region: string;
  readonly accountId: string;
  readonly name: string;
}

const topicArn = (topic: SnsTopic) => `arn:aws:sns:${topic.region}:${topic.accountId}:${topic.name}`;

export function snsEvent(topic: SnsTopic, message: unknown, at = new Date()): SNSEvent {
  const arn = topicArn(topic);
  const messageId = randomUUID();
  return {
    Records: [
      {
        EventSource: 'aws:sns',
        EventVersion: '1.0',
        EventSubscriptionArn: `${arn}:${randomUUID()}`,
        Sns: {
          Type: 'Notification',
          MessageId: messageId,
          TopicArn: arn,
          Message: JSON.stringify(message),
          Timestamp: at.toISOString(),
          SignatureVersion: '1',
          // Nobody checks it locally; SNS's own signature covers the HTTP endpoint case only.
          Signature: Buffer.from(`local-${messageId}`).toString('base64'),
          SigningCertUrl: `https://sns.${topic.region}.amazonaws.com/SimpleNotificationService-local.pem`,
          UnsubscribeUrl: `https://sns.${topic.region}.amazonaws.com/?Action=Unsubscribe&SubscriptionArn=${arn}`,
          MessageAttributes: {},
        },
      },
    ],
  };
}
