import { PinpointSMSVoiceV2Client, SendTextMessageCommand } from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSmsGateway, renderSmsTemplate, SmsError } from './sms';

const template = { templateId: '1107000000000000001', text: 'Your OTP is {#var#}. - TN Student Wing' };
const config = {
  region: 'ap-south-1',
  originationIdentity: 'TNSWNG',
  configurationSet: 'membership-prod-sms',
  entityId: '1101000000000000001',
  timeoutMs: 1000,
};

describe('DLT templates', () => {
  it('fills each {#var#} in order, to the character', () => {
    expect(renderSmsTemplate(template, ['123456'])).toBe('Your OTP is 123456. - TN Student Wing');
    expect(renderSmsTemplate({ templateId: 'x', text: '{#var#} and {#var#}' }, ['a', 'b'])).toBe('a and b');
  });
  it('refuses what DLT scrubbing would block: a wrong count or a variable over 30 characters', () => {
    expect(() => renderSmsTemplate(template, [])).toThrow(SmsError);
    expect(() => renderSmsTemplate(template, ['1', '2'])).toThrow(SmsError);
    expect(() => renderSmsTemplate(template, ['x'.repeat(31)])).toThrow(SmsError);
  });
});

describe('SMS gateway errors a real server seldom gives', () => {
  const sms = mockClient(PinpointSMSVoiceV2Client);
  afterEach(() => sms.reset());

  it('sends with the DLT parameters and the configuration set', async () => {
    sms.on(SendTextMessageCommand).resolves({ MessageId: 'm-1' });
    const gateway = makeSmsGateway(config, new PinpointSMSVoiceV2Client({ region: 'ap-south-1' }));
    await expect(gateway.send('919876543210', template, ['123456'])).resolves.toBe('m-1');
    expect(sms.commandCalls(SendTextMessageCommand)[0]?.args[0].input).toEqual({
      DestinationPhoneNumber: '+919876543210',
      OriginationIdentity: 'TNSWNG',
      MessageBody: 'Your OTP is 123456. - TN Student Wing',
      MessageType: 'TRANSACTIONAL',
      ConfigurationSetName: 'membership-prod-sms',
      DestinationCountryParameters: { IN_ENTITY_ID: '1101000000000000001', IN_TEMPLATE_ID: '1107000000000000001' },
    });
  });

  it.each([
    ['ThrottlingException', 'throttled'],
    ['ServiceQuotaExceededException', 'throttled'],
    ['ValidationException', 'rejected'],
    ['AccessDeniedException', 'rejected'],
    ['InternalServerException', 'provider'],
    ['TimeoutError', 'network'],
  ])('%s is a %s failure', async (name, failure) => {
    const error = Object.assign(new Error(name), { name });
    sms.on(SendTextMessageCommand).rejects(error);
    const gateway = makeSmsGateway(config, new PinpointSMSVoiceV2Client({ region: 'ap-south-1' }));
    await expect(gateway.send('919876543210', template, ['123456'])).rejects.toMatchObject({
      failure,
      providerCode: name,
    });
  });

  it('is not configured without a sender id, a configuration set and an entity id', async () => {
    const gateway = makeSmsGateway(
      { ...config, originationIdentity: '' },
      new PinpointSMSVoiceV2Client({ region: 'ap-south-1' }),
    );
    await expect(gateway.send('919876543210', template, ['123456'])).rejects.toMatchObject({
      failure: 'not-configured',
    });
    expect(sms.commandCalls(SendTextMessageCommand)).toHaveLength(0);
  });
});
