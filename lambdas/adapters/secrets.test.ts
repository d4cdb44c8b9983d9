import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSecretsLoader } from './secrets';

// Secrets Manager has no local stand-in, so its answers are mocked here.
const sm = mockClient(SecretsManagerClient);
afterEach(() => sm.reset());

const keys = { otpHashKey: 'k'.repeat(40), verificationSigningKey: 'v'.repeat(40) };
const provider = { whatsappToken: 'token-value', whatsappPhoneNumberId: '123', recaptchaSecret: 'captcha-value' };

describe('secrets loader', () => {
  it('reads both secrets by ARN and caches them between invocations', async () => {
    sm.on(GetSecretValueCommand, { SecretId: 'arn:provider' }).resolves({ SecretString: JSON.stringify(provider) });
    sm.on(GetSecretValueCommand, { SecretId: 'arn:keys' }).resolves({ SecretString: JSON.stringify(keys) });
    const load = makeSecretsLoader(
      { APP_MODE: 'aws', PROVIDER_SECRET_ARN: 'arn:provider', KEYS_SECRET_ARN: 'arn:keys' },
      new SecretsManagerClient({ region: 'ap-south-1' }),
    );
    const first = await load();
    expect(first).toMatchObject({ ...provider, ...keys, webhookUrl: '' });
    await load();
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('names the broken secret and field without revealing any value', async () => {
    sm.on(GetSecretValueCommand, { SecretId: 'arn:provider' }).resolves({ SecretString: JSON.stringify(provider) });
    sm.on(GetSecretValueCommand, { SecretId: 'arn:keys' }).resolves({ SecretString: JSON.stringify({ otpHashKey: 'short-secret' }) });
    const load = makeSecretsLoader(
      { APP_MODE: 'aws', PROVIDER_SECRET_ARN: 'arn:provider', KEYS_SECRET_ARN: 'arn:keys' },
      new SecretsManagerClient({ region: 'ap-south-1' }),
    );
    const error = await load().catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/keys.*otpHashKey.*verificationSigningKey/);
    expect((error as Error).message).not.toContain('short-secret');
  });

  it('refuses to start in AWS without the secret ARNs', () => {
    expect(() => makeSecretsLoader({ APP_MODE: 'aws' })).toThrow(/PROVIDER_SECRET_ARN/);
  });

  it('reads the fixed local secrets only in local mode', async () => {
    const load = makeSecretsLoader({ APP_MODE: 'local', LOCAL_SECRETS: JSON.stringify({ ...provider, ...keys }) });
    expect(await load()).toMatchObject({ ...provider, ...keys });
  });
});
