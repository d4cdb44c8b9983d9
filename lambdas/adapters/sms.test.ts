import { describe, expect, it } from 'vitest';
import { makeSmsGateway, renderSmsTemplate, SmsError, type SmsTransport } from './sms';

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

/** End User Messaging SMS answering with `answer`; `requests` lists what it was sent. */
function fakeSms(answer: (request: Request, init?: RequestInit) => Promise<Response> | Response) {
  const requests: { url: string; headers: Headers; body: unknown }[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input as Request;
    requests.push({ url: request.url, headers: request.headers, body: await request.clone().json() });
    return answer(request, init);
  };
  const transport: SmsTransport = { fetch, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } };
  return { requests, transport };
}

const json = (status: number, body: object, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/x-amz-json-1.0', ...headers } });
/** An exception as the service sends it: HTTP 4xx/5xx, `__type` with its namespace, `Message`, extra fields. */
const exception = (name: string, status = 400, fields: object = {}) =>
  json(status, { __type: `com.amazonaws.pinpointsmsvoicev2#${name}`, Message: 'refused', ...fields });

describe('SMS gateway errors a real server seldom gives', () => {
  it('sends SendTextMessage with the DLT parameters and the configuration set', async () => {
    const sms = fakeSms(() => json(200, { MessageId: 'm-1' }));
    const gateway = makeSmsGateway(config, sms.transport);
    await expect(gateway.send('919876543210', template, ['123456'])).resolves.toBe('m-1');
    expect(sms.requests).toHaveLength(1);
    const [request] = sms.requests;
    expect(request?.url).toBe('https://sms-voice.ap-south-1.amazonaws.com/');
    expect(request?.headers.get('x-amz-target')).toBe('PinpointSMSVoiceV2.SendTextMessage');
    expect(request?.headers.get('content-type')).toBe('application/x-amz-json-1.0');
    expect(request?.headers.get('authorization')).toMatch(
      /^AWS4-HMAC-SHA256 Credential=test\/\d{8}\/ap-south-1\/sms-voice\//,
    );
    expect(request?.body).toEqual({
      DestinationPhoneNumber: '+919876543210',
      OriginationIdentity: 'TNSWNG',
      MessageBody: 'Your OTP is 123456. - TN Student Wing',
      MessageType: 'TRANSACTIONAL',
      ConfigurationSetName: 'membership-prod-sms',
      DestinationCountryParameters: { IN_ENTITY_ID: '1101000000000000001', IN_TEMPLATE_ID: '1107000000000000001' },
    });
  });

  it('sends to the local sandbox with fixed credentials in local mode', async () => {
    const sms = fakeSms(() => json(200, { MessageId: 'm-2' }));
    const gateway = makeSmsGateway({ ...config, endpoint: 'http://127.0.0.1:4599' }, { fetch: sms.transport.fetch });
    await expect(gateway.send('919876543210', template, ['123456'])).resolves.toBe('m-2');
    expect(sms.requests[0]?.url).toBe('http://127.0.0.1:4599/');
    expect(sms.requests[0]?.headers.get('authorization')).toMatch(/^AWS4-HMAC-SHA256 Credential=local\//);
  });

  it.each([
    ['ThrottlingException', 400, 'throttled'],
    ['ServiceQuotaExceededException', 400, 'throttled'],
    ['ValidationException', 400, 'rejected'],
    ['ConflictException', 400, 'rejected'],
    ['ResourceNotFoundException', 400, 'rejected'],
    ['AccessDeniedException', 400, 'rejected'],
    ['InternalServerException', 500, 'provider'],
  ])('%s is a %s failure, sent once', async (name, status, failure) => {
    const sms = fakeSms(() => exception(name, status, { Reason: 'SOME_REASON' }));
    const gateway = makeSmsGateway(config, sms.transport);
    await expect(gateway.send('919876543210', template, ['123456'])).rejects.toMatchObject({
      failure,
      providerCode: name,
    });
    expect(sms.requests).toHaveLength(1);
  });

  it('reads the exception name from the x-amzn-errortype header when the body has none', async () => {
    const sms = fakeSms(() =>
      json(
        400,
        { Message: 'Rate exceeded' },
        { 'x-amzn-errortype': 'ThrottlingException:http://internal.amazon.com/' },
      ),
    );
    const gateway = makeSmsGateway(config, sms.transport);
    await expect(gateway.send('919876543210', template, ['123456'])).rejects.toMatchObject({
      failure: 'throttled',
      providerCode: 'ThrottlingException',
    });
  });

  it('is a network failure when the connection fails', async () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    const sms = fakeSms(() => Promise.reject(refused));
    const gateway = makeSmsGateway(config, sms.transport);
    await expect(gateway.send('919876543210', template, ['123456'])).rejects.toMatchObject({
      failure: 'network',
      providerCode: 'NetworkError',
    });
    expect(sms.requests).toHaveLength(1);
  });

  it('is a network failure when the service does not answer within the call timeout', async () => {
    // Answers only when the request is aborted, as fetch does.
    const sms = fakeSms(
      (_request, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error)),
        ),
    );
    const gateway = makeSmsGateway(config, sms.transport);
    await expect(gateway.send('919876543210', template, ['123456'], { timeoutMs: 50 })).rejects.toMatchObject({
      failure: 'network',
      providerCode: 'TimeoutError',
    });
  });

  it('is a provider failure when the answer has no MessageId', async () => {
    const sms = fakeSms(() => json(200, {}));
    const gateway = makeSmsGateway(config, sms.transport);
    await expect(gateway.send('919876543210', template, ['123456'])).rejects.toMatchObject({
      failure: 'provider',
      providerCode: 'NoMessageId',
    });
  });

  it('is not configured without a sender id, a configuration set and an entity id', async () => {
    const sms = fakeSms(() => json(200, { MessageId: 'm-1' }));
    const gateway = makeSmsGateway({ ...config, originationIdentity: '' }, sms.transport);
    await expect(gateway.send('919876543210', template, ['123456'])).rejects.toMatchObject({
      failure: 'not-configured',
    });
    expect(sms.requests).toHaveLength(0);
  });
});
