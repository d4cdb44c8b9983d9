import { describe, expect, it } from 'vitest';
import { snsEvent } from './sns-event';

describe('snsEvent', () => {
  it('wraps a message as Lambda gets it from an SNS subscription', () => {
    const event = snsEvent(
      { region: 'ap-south-1', accountId: '000000000000', name: 'sms-events' },
      { eventType: 'TEXT_DELIVERED' },
    );
    expect(event.Records).toHaveLength(1);
    const [record] = event.Records;
    expect(record).toMatchObject({
      EventSource: 'aws:sns',
      EventVersion: '1.0',
      Sns: { Type: 'Notification', TopicArn: 'arn:aws:sns:ap-south-1:000000000000:sms-events' },
    });
    expect(record?.EventSubscriptionArn.startsWith('arn:aws:sns:ap-south-1:000000000000:sms-events:')).toBe(true);
    expect(JSON.parse(record?.Sns.Message ?? '')).toEqual({ eventType: 'TEXT_DELIVERED' });
    expect(Date.parse(record?.Sns.Timestamp ?? '')).not.toBeNaN();
  });
});
