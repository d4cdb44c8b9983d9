import { describe, expect, it } from 'vitest';
import { makeSecretsLoader, type SecretsLoaderOptions } from './secrets';

// Secrets Manager has no local stand-in: a fake fetch answers GetSecretValue as the
// service does (AWS JSON 1.1, errors with `__type`), and records what was asked.

const provider = { whatsappToken: 'token-value', whatsappPhoneNumberId: '123', recaptchaSecret: 'captcha-value' };
const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };

type Answer = { status: number; body: object };
const secret = (value: object): Answer => ({ status: 200, body: { SecretString: JSON.stringify(value) } });
const notFound: Answer = {
  status: 400,
  body: { __type: 'ResourceNotFoundException', message: "Secrets Manager can't find the specified secret." },
};

/** A Secrets Manager answering from `answers` by SecretId; `requests` lists what it was asked. */
function fakeSecretsManager(answers: Record<string, Answer | (() => Answer)>) {
  const requests: { url: string; target: string | null; contentType: string | null; secretId: string }[] = [];
  let clock = 1_000_000;
  const fetch = async (input: RequestInfo | URL): Promise<Response> => {
    const request = input as Request;
    const body = (await request.json()) as { SecretId: string };
    requests.push({
      url: request.url,
      target: request.headers.get('x-amz-target'),
      contentType: request.headers.get('content-type'),
      secretId: body.SecretId,
    });
    const found = answers[body.SecretId];
    const answer = typeof found === 'function' ? found() : (found ?? notFound);
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/x-amz-json-1.1' },
    });
  };
  const options: SecretsLoaderOptions = {
    aws: { fetch, credentials, sleep: () => Promise.resolve() },
    now: () => clock,
  };
  return { requests, options, advance: (ms: number) => (clock += ms) };
}

const aws = { APP_MODE: 'aws', AWS_REGION: 'ap-south-1' } as const;

describe('secrets loader', () => {
  it('reads each secret by its own ARN, only when asked, and caches it between invocations', async () => {
    const sm = fakeSecretsManager({ 'arn:provider': secret(provider), 'arn:hash': secret({ value: 'h'.repeat(40) }) });
    const load = makeSecretsLoader(
      { ...aws, PROVIDER_SECRET_ARN: 'arn:provider', OTP_HASH_KEY_SECRET_ARN: 'arn:hash' },
      sm.options,
    );
    expect(await load.otpHashKey()).toBe('h'.repeat(40));
    expect(sm.requests).toEqual([
      {
        url: 'https://secretsmanager.ap-south-1.amazonaws.com/',
        target: 'secretsmanager.GetSecretValue',
        contentType: 'application/x-amz-json-1.1',
        secretId: 'arn:hash',
      },
    ]);
    expect(await load.provider()).toMatchObject({ ...provider, webhookUrl: '' });
    await load.provider();
    await load.otpHashKey();
    expect(sm.requests.map((r) => r.secretId)).toEqual(['arn:hash', 'arn:provider']);
  });

  it('reads a secret again once it is five minutes old, so that a rotation takes effect', async () => {
    let value = 'a'.repeat(40);
    const sm = fakeSecretsManager({ 'arn:hash': () => secret({ value }) });
    const load = makeSecretsLoader({ ...aws, OTP_HASH_KEY_SECRET_ARN: 'arn:hash' }, sm.options);
    expect(await load.otpHashKey()).toBe('a'.repeat(40));
    value = 'b'.repeat(40);
    sm.advance(299_000);
    expect(await load.otpHashKey()).toBe('a'.repeat(40));
    sm.advance(1_000);
    expect(await load.otpHashKey()).toBe('b'.repeat(40));
    expect(sm.requests).toHaveLength(2);
  });

  it('sends one request for concurrent first reads', async () => {
    const sm = fakeSecretsManager({ 'arn:hash': secret({ value: 'h'.repeat(40) }) });
    const load = makeSecretsLoader({ ...aws, OTP_HASH_KEY_SECRET_ARN: 'arn:hash' }, sm.options);
    const values = await Promise.all([load.otpHashKey(), load.otpHashKey(), load.otpHashKey()]);
    expect(values).toEqual(Array(3).fill('h'.repeat(40)));
    expect(sm.requests).toHaveLength(1);
  });

  it("surfaces the service's error name, and does not keep a failed read", async () => {
    let answer = notFound;
    const sm = fakeSecretsManager({ 'arn:sign': () => answer });
    const load = makeSecretsLoader({ ...aws, SIGNING_KEY_SECRET_ARN: 'arn:sign' }, sm.options);
    await expect(load.signingKey()).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
      $metadata: { httpStatusCode: 400 },
    });
    answer = secret({ value: 's'.repeat(40) });
    expect(await load.signingKey()).toBe('s'.repeat(40));
    expect(sm.requests).toHaveLength(2);
  });

  it('refuses a secret the function was not granted, naming its variable', async () => {
    const sm = fakeSecretsManager({});
    const load = makeSecretsLoader({ ...aws, PROVIDER_SECRET_ARN: 'arn:provider' }, sm.options);
    await expect(load.signingKey()).rejects.toThrow(/SIGNING_KEY_SECRET_ARN/);
    expect(sm.requests).toHaveLength(0);
  });

  it('names the broken secret and field without revealing any value', async () => {
    const sm = fakeSecretsManager({
      'arn:sign': secret({ value: 'short-secret' }),
      'arn:provider': { status: 200, body: { SecretString: 'not json, token-value' } },
    });
    const load = makeSecretsLoader(
      { ...aws, SIGNING_KEY_SECRET_ARN: 'arn:sign', PROVIDER_SECRET_ARN: 'arn:provider' },
      sm.options,
    );
    const error = await load.signingKey().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/signingKey.*value/);
    expect((error as Error).message).not.toContain('short-secret');
    const notJson = await load.provider().catch((e: unknown) => e);
    expect((notJson as Error).message).toBe('Secret provider is not JSON');
  });

  it('reads the origin tokens, current and previous', async () => {
    const sm = fakeSecretsManager({ 'arn:origin': secret({ current: 'c'.repeat(40) }) });
    const load = makeSecretsLoader({ ...aws, ORIGIN_SECRET_ARN: 'arn:origin' }, sm.options);
    expect(await load.origin()).toEqual({ current: 'c'.repeat(40), previous: '' });
  });

  it('reads the fixed local secrets only in local mode', async () => {
    const sm = fakeSecretsManager({});
    const keys = { otpHashKey: 'k'.repeat(40), verificationSigningKey: 'v'.repeat(40) };
    const load = makeSecretsLoader(
      { APP_MODE: 'local', AWS_REGION: 'ap-south-1', LOCAL_SECRETS: JSON.stringify({ ...provider, ...keys }) },
      sm.options,
    );
    expect(await load.provider()).toMatchObject(provider);
    expect(await load.otpHashKey()).toBe(keys.otpHashKey);
    expect(await load.signingKey()).toBe(keys.verificationSigningKey);
    expect(sm.requests).toHaveLength(0);
  });
});
