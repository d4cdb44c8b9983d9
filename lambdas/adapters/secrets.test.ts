import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSecretsLoader } from './secrets';

// Secrets Manager has no local stand-in, so its answers are mocked here.
const sm = mockClient(SecretsManagerClient);
afterEach(() => sm.reset());

const provider = { whatsappToken: 'token-value', whatsappPhoneNumberId: '123', recaptchaSecret: 'captcha-value' };
const client = () => new SecretsManagerClient({ region: 'ap-south-1' });

describe('secrets loader', () => {
  it('reads each secret by its own ARN, only when asked, and caches it between invocations', async () => {
    sm.on(GetSecretValueCommand, { SecretId: 'arn:provider' }).resolves({ SecretString: JSON.stringify(provider) });
    sm.on(GetSecretValueCommand, { SecretId: 'arn:hash' }).resolves({
      SecretString: JSON.stringify({ value: 'h'.repeat(40) }),
    });
    const load = makeSecretsLoader(
      { APP_MODE: 'aws', PROVIDER_SECRET_ARN: 'arn:provider', OTP_HASH_KEY_SECRET_ARN: 'arn:hash' },
      client(),
    );
    expect(await load.otpHashKey()).toBe('h'.repeat(40));
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(1);
    expect(await load.provider()).toMatchObject({ ...provider, webhookUrl: '' });
    await load.provider();
    await load.otpHashKey();
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('refuses a secret the function was not granted, naming its variable', async () => {
    const load = makeSecretsLoader({ APP_MODE: 'aws', PROVIDER_SECRET_ARN: 'arn:provider' }, client());
    await expect(load.signingKey()).rejects.toThrow(/SIGNING_KEY_SECRET_ARN/);
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(0);
  });

  it('names the broken secret and field without revealing any value', async () => {
    sm.on(GetSecretValueCommand, { SecretId: 'arn:sign' }).resolves({
      SecretString: JSON.stringify({ value: 'short-secret' }),
    });
    const load = makeSecretsLoader({ APP_MODE: 'aws', SIGNING_KEY_SECRET_ARN: 'arn:sign' }, client());
    const error = await load.signingKey().catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/signingKey.*value/);
    expect((error as Error).message).not.toContain('short-secret');
  });

  it('reads the origin tokens, current and previous', async () => {
    sm.on(GetSecretValueCommand, { SecretId: 'arn:origin' }).resolves({
      SecretString: JSON.stringify({ current: 'c'.repeat(40) }),
    });
    const load = makeSecretsLoader({ APP_MODE: 'aws', ORIGIN_SECRET_ARN: 'arn:origin' }, client());
    expect(await load.origin()).toEqual({ current: 'c'.repeat(40), previous: '' });
  });

  it('reads the fixed local secrets only in local mode', async () => {
    const keys = { otpHashKey: 'k'.repeat(40), verificationSigningKey: 'v'.repeat(40) };
    const load = makeSecretsLoader({ APP_MODE: 'local', LOCAL_SECRETS: JSON.stringify({ ...provider, ...keys }) });
    expect(await load.provider()).toMatchObject(provider);
    expect(await load.otpHashKey()).toBe(keys.otpHashKey);
    expect(await load.signingKey()).toBe(keys.verificationSigningKey);
  });
});
