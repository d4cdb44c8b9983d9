import { CloudFormationClient, DescribeStacksCommand, type Stack } from '@aws-sdk/client-cloudformation';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import {
  DescribeAccountAttributesCommand,
  DescribeSenderIdsCommand,
  DescribeSpendLimitsCommand,
  PinpointSMSVoiceV2Client,
} from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GetTopicAttributesCommand, ListSubscriptionsByTopicCommand, SNSClient } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import type { ProviderSecrets } from '../lambdas/adapters/secrets';
import { loadStageConfig, stageConfigSchema, stageConfigs, type StageConfig } from '../lib/stages';
import { concurrencyNeeds, rallySmsSpend } from './preflight-quotas';
import { formatReport } from './preflight-report';
import { runPreflight, type PreflightDeps } from './preflight';

// The preflight (ops/preflight.ts) against today's settings, offline, and against a
// complete stage whose AWS, Google and Meta answers are fakes: each check is turned wrong
// once and must block. (In the unit tier's folders: vitest.config.ts does not collect ops/.)

const secretValues: ProviderSecrets = {
  whatsappToken: 'EAAG-token-value-never-printed',
  whatsappPhoneNumberId: '109876543210987',
  whatsappAppSecret: 'app-secret-value-never-printed',
  whatsappVerifyToken: 'verify-token-value-never-printed',
  webhookUrl: 'https://automation.example.org/hook',
  webhookUsername: 'membership',
  webhookPassword: 'webhook-password-never-printed',
  recaptchaSecret: '6Lc-recaptcha-secret-never-printed',
};

const dlt = (id: string, text: string) => ({ templateId: id, text });
/** Prod with every placeholder filled and an alarm destination: what a ready stage looks like. */
const complete: StageConfig = stageConfigSchema.parse({
  ...stageConfigs.prod,
  alarmEmail: 'ops@example.org',
  dataContact: { name: 'R. Kumar, Data Protection Officer', email: 'privacy@example.org', phone: '+91 44 2345 6789' },
  captcha: { siteKey: '6LcAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', scoreThreshold: 0.5 },
  whatsapp: {
    ...stageConfigs.prod.whatsapp,
    welcomeVideoUrl: 'https://media.example.org/welcome.mp4',
    businessAccountId: '102290129340398',
  },
  messaging: {
    ...stageConfigs.prod.messaging,
    sms: {
      ...stageConfigs.prod.messaging?.sms,
      originationIdentity: 'TNSWNG',
      entityId: '1201234567890123456',
      templates: {
        otp: {
          en: dlt('1107000000000000001', '{#var#} is your code.'),
          ta: dlt('1107000000000000002', '{#var#} குறியீடு.'),
        },
        approved: { en: dlt('1107000000000000003', 'Approved, {#var#}!') },
        rejected: { en: dlt('1107000000000000004', 'Not approved, {#var#}.') },
      },
    },
  },
});

/** The withdrawal confirmation's WhatsApp template (issue 21), as the stages name it. */
const withdrawal = { name: 'withdrawal_confirmed', languages: { en: 'en', ta: 'ta' } };

const secretArn = 'arn:aws:secretsmanager:ap-south-1:111122223333:secret:provider-AbCdEf';
const topicArn = 'arn:aws:sns:ap-south-1:111122223333:Membership-prod-App-AlarmsTopic';
const tlsDeny = {
  Effect: 'Deny',
  Principal: '*',
  Action: 'sns:Publish',
  Resource: topicArn,
  Condition: { Bool: { 'aws:SecureTransport': 'false' } },
};
const cloudWatchPolicy = JSON.stringify({
  Version: '2012-10-17',
  Statement: [
    tlsDeny,
    {
      Effect: 'Allow',
      Principal: { Service: 'cloudwatch.amazonaws.com' },
      Action: 'sns:Publish',
      Resource: topicArn,
      Condition: { StringEquals: { 'aws:SourceAccount': '111122223333' } },
    },
  ],
});

const stack = (name: string, outputs: Record<string, string> = {}, status = 'CREATE_COMPLETE'): Stack => ({
  StackName: name,
  StackStatus: status as Stack['StackStatus'],
  CreationTime: new Date(0),
  Outputs: Object.entries(outputs).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue })),
});
const notFound = (name: string) =>
  Object.assign(new Error(`Stack with id ${name} does not exist`), { name: 'ValidationError' });

interface Answers {
  siteverify: () => Response;
  phone: () => Response;
  templates: (name: string) => Response;
}
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const approvedTemplates = (name: string) =>
  json({
    data: ['en', 'en_US', 'ta'].map((language) => ({ name, language, status: 'APPROVED', id: `${name}-${language}` })),
  });

/** A ready prod in a ready account; `tweak` turns one answer wrong. */
function world(tweak: (w: ReturnType<typeof mocks>) => void = () => {}) {
  const w = mocks();
  tweak(w);
  return w;
}

function mocks() {
  const deps = {
    cloudFormation: new CloudFormationClient({ region: 'ap-south-1' }),
    edgeCloudFormation: new CloudFormationClient({ region: 'us-east-1' }),
    secretsManager: new SecretsManagerClient({ region: 'ap-south-1' }),
    sns: new SNSClient({ region: 'ap-south-1' }),
    lambda: new LambdaClient({ region: 'ap-south-1' }),
    sms: new PinpointSMSVoiceV2Client({ region: 'ap-south-1' }),
  };
  const cfn = mockClient(deps.cloudFormation);
  const edge = mockClient(deps.edgeCloudFormation);
  const secrets = mockClient(deps.secretsManager);
  const sns = mockClient(deps.sns);
  const lambda = mockClient(deps.lambda);
  const sms = mockClient(deps.sms);

  cfn
    .on(DescribeStacksCommand, { StackName: 'CDKToolkit' })
    .resolves({ Stacks: [stack('CDKToolkit', { BootstrapVersion: '30' })] })
    .on(DescribeStacksCommand, { StackName: 'Membership-prod-Data' })
    .resolves({ Stacks: [stack('Membership-prod-Data', { ProviderSecretArn: secretArn })] })
    .on(DescribeStacksCommand, { StackName: 'Membership-prod-App' })
    .resolves({
      Stacks: [
        stack('Membership-prod-App', { AlarmTopicArn: topicArn, SiteUrl: 'https://d111111abcdef8.cloudfront.net' }),
      ],
    });
  edge
    .on(DescribeStacksCommand, { StackName: 'CDKToolkit' })
    .resolves({ Stacks: [stack('CDKToolkit', { BootstrapVersion: '30' })] })
    .on(DescribeStacksCommand, { StackName: 'Membership-prod-Edge' })
    .resolves({ Stacks: [stack('Membership-prod-Edge')] });
  secrets.on(GetSecretValueCommand).resolves({ ARN: secretArn, SecretString: JSON.stringify(secretValues) });
  sns.on(GetTopicAttributesCommand).resolves({ Attributes: { TopicArn: topicArn, Policy: cloudWatchPolicy } });
  sns.on(ListSubscriptionsByTopicCommand).resolves({
    Subscriptions: [
      { SubscriptionArn: `${topicArn}:0b1c2d3e`, Protocol: 'email', Endpoint: 'ops@example.org', TopicArn: topicArn },
    ],
  });
  lambda.on(GetAccountSettingsCommand).resolves({ AccountLimit: { ConcurrentExecutions: 1000 } });
  sms.on(DescribeSenderIdsCommand).resolves({
    SenderIds: [
      {
        SenderId: 'TNSWNG',
        IsoCountryCode: 'IN',
        SenderIdArn: 'arn:aws:sms-voice:ap-south-1:111122223333:sender-id/TNSWNG/IN',
        MessageTypes: ['TRANSACTIONAL'],
        MonthlyLeasingPrice: '0',
        DeletionProtectionEnabled: false,
        Registered: false,
      },
    ],
  });
  sms
    .on(DescribeAccountAttributesCommand)
    .resolves({ AccountAttributes: [{ Name: 'ACCOUNT_TIER', Value: 'PRODUCTION' }] });
  sms.on(DescribeSpendLimitsCommand).resolves({
    SpendLimits: [{ Name: 'TEXT_MESSAGE_MONTHLY_SPEND_LIMIT', EnforcedLimit: 100, MaxLimit: 100, Overridden: false }],
  });

  const answers: Answers = {
    siteverify: () => json({ success: false, 'error-codes': ['invalid-input-response'] }),
    phone: () =>
      json({
        display_phone_number: '+91 98765 43210',
        quality_rating: 'GREEN',
        whatsapp_business_manager_messaging_limit: 'TIER_250',
        id: secretValues.whatsappPhoneNumberId,
      }),
    templates: approvedTemplates,
  };
  const calls: { url: string; authorization?: string; body?: string }[] = [];
  const fakeFetch: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(init?.headers);
    calls.push({
      url: url.href,
      authorization: headers.get('authorization') ?? undefined,
      body: init?.body instanceof URLSearchParams ? init.body.toString() : undefined,
    });
    if (url.href === 'https://www.google.com/recaptcha/api/siteverify') return answers.siteverify();
    if (url.hostname === 'graph.facebook.com' && url.pathname.endsWith('/message_templates')) {
      return answers.templates(url.searchParams.get('name') ?? '');
    }
    if (url.hostname === 'graph.facebook.com') return answers.phone();
    throw new TypeError(`fetch failed: unexpected ${url.href}`);
  };
  return {
    deps: { ...deps, fetch: fakeFetch } satisfies PreflightDeps,
    cfn,
    edge,
    secrets,
    sns,
    lambda,
    sms,
    answers,
    calls,
  };
}

async function preflight(config: StageConfig, w: ReturnType<typeof mocks>) {
  const report = await runPreflight(config, w.deps);
  const text = formatReport(config, report);
  const ids = (severity: string) => report.findings.filter((f) => f.severity === severity).map((f) => f.id);
  return { report, text, blocking: ids('blocking'), warnings: ids('warning'), notes: ids('note') };
}

const noCredentials = () =>
  Object.assign(new Error('Could not load credentials from any providers'), { name: 'CredentialsProviderError' });

describe("today's settings, without AWS credentials", () => {
  it('lists every placeholder and the missing alarm destination, says AWS could not be reached, and exits non-zero', async () => {
    const w = world((m) => {
      for (const client of [m.cfn, m.edge, m.secrets, m.sns, m.lambda, m.sms]) client.reset().rejects(noCredentials());
    });
    const { report, text, blocking, warnings } = await preflight(loadStageConfig('prod'), w);

    expect(blocking).toEqual(expect.arrayContaining(['alarmEmail', 'captcha.siteKey', 'dataContact', 'aws']));
    expect(warnings).toEqual(
      expect.arrayContaining([
        'whatsapp.welcomeVideoUrl',
        'messaging.sms.originationIdentity',
        'messaging.sms.entityId',
        'messaging.sms.templates.otp.en.templateId',
        'messaging.sms.templates.otp.ta.templateId',
        'messaging.sms.templates.approved.en.templateId',
        'messaging.sms.templates.rejected.en.templateId',
        'messaging.sms.templates.withdrawn.en.templateId',
        'messaging.sms.templates.withdrawn.ta.templateId',
      ]),
    );
    expect(report.exitCode).toBe(1);
    expect(text).toContain('Could not reach AWS: no usable credentials');
    expect(text).toContain('RECAPTCHA_SITE_KEY_PLACEHOLDER');
    expect(text).toContain('privacy@placeholder.invalid');
    expect(text).toContain('https://www.youtube.com/watch?v=PLACEHOLDER');
    // One finding for AWS, not one per check, and no call after the first refusal.
    expect(report.findings.filter((f) => f.id.startsWith('aws'))).toHaveLength(1);
    expect(w.calls).toHaveLength(0);
  });
});

describe('a complete stage in a ready account', () => {
  it('passes: exit 0, only the note on what no API can check', async () => {
    const w = world();
    const { report, text, blocking, warnings, notes } = await preflight(complete, w);
    expect(blocking).toEqual([]);
    expect(warnings).toEqual([]);
    expect(notes).toEqual(['captcha.domains']);
    expect(report.exitCode).toBe(0);
    expect(text).toContain('d111111abcdef8.cloudfront.net');
    expect(text).toMatch(/Summary: 0 blocking findings, 0 warnings, 1 note, \d+ checks passed/);
    // Each check was made: the dry siteverify, the number's read, one template read per name
    // (the code's, the welcome's, and the grievance answer's, always on: issue 21).
    expect(w.calls.map((c) => new URL(c.url).pathname)).toEqual([
      '/recaptcha/api/siteverify',
      `/v19.0/${secretValues.whatsappPhoneNumberId}`,
      '/v19.0/102290129340398/message_templates',
      '/v19.0/102290129340398/message_templates',
      '/v19.0/102290129340398/message_templates',
    ]);
    expect(w.calls[0]?.body).toContain('response=preflight-dummy-token');
  });

  it('never prints a secret value', async () => {
    const { text } = await preflight(complete, world());
    for (const value of Object.values(secretValues)) expect(text).not.toContain(value);
  });

  it('before the first deploy: bootstrap and quotas checked, the stacks noted as not deployed, exit 0', async () => {
    const w = world((m) => {
      for (const name of ['Membership-prod-Data', 'Membership-prod-App']) {
        m.cfn.on(DescribeStacksCommand, { StackName: name }).rejects(notFound(name));
      }
      m.edge.on(DescribeStacksCommand, { StackName: 'Membership-prod-Edge' }).rejects(notFound('Membership-prod-Edge'));
    });
    const { report, notes, text } = await preflight(complete, w);
    expect(notes).toEqual(
      expect.arrayContaining(['stack:Membership-prod-Data', 'stack:Membership-prod-App', 'stack:Membership-prod-Edge']),
    );
    expect(report.exitCode).toBe(0);
    expect(text).toContain('ap-south-1 bootstrapped');
    expect(w.secrets.calls()).toHaveLength(0);
    expect(w.calls).toHaveLength(0);
  });
});

describe('each AWS check, turned wrong, blocks', () => {
  it("an alarm topic policy without CloudWatch (enforceSSL's deny alone)", async () => {
    const tlsOnly = JSON.stringify({ Version: '2012-10-17', Statement: [tlsDeny] });
    const w = world((m) => m.sns.on(GetTopicAttributesCommand).resolves({ Attributes: { Policy: tlsOnly } }));
    const { report, blocking, text } = await preflight(complete, w);
    expect(blocking).toEqual(['alarms.topicPolicy']);
    expect(text).toContain('does not allow cloudwatch.amazonaws.com to sns:Publish');
    expect(report.exitCode).toBe(1);
  });

  it('an alarm subscription still pending confirmation', async () => {
    const w = world((m) =>
      m.sns.on(ListSubscriptionsByTopicCommand).resolves({
        Subscriptions: [{ SubscriptionArn: 'PendingConfirmation', Protocol: 'email', Endpoint: 'ops@example.org' }],
      }),
    );
    const { report, blocking, text } = await preflight(complete, w);
    expect(blocking).toEqual(['alarms.subscription']);
    expect(text).toContain('Confirm the e-mail');
    expect(text).toContain('ops@example.org');
    expect(report.exitCode).toBe(1);
  });

  it('an empty field of the provider secret (and no call to Meta with it)', async () => {
    const w = world((m) =>
      m.secrets
        .on(GetSecretValueCommand)
        .resolves({ SecretString: JSON.stringify({ ...secretValues, whatsappToken: '' }) }),
    );
    const { report, blocking } = await preflight(complete, w);
    expect(blocking).toEqual(['secret:provider.whatsappToken']);
    expect(w.calls.some((c) => c.url.includes('graph.facebook.com'))).toBe(false);
    expect(report.exitCode).toBe(1);
  });

  it('a provider secret that is not JSON, without quoting it', async () => {
    const w = world((m) =>
      m.secrets.on(GetSecretValueCommand).resolves({ SecretString: 'EAAG-raw-token-pasted-alone' }),
    );
    const { blocking, text } = await preflight(complete, w);
    expect(blocking).toEqual(['secret:provider']);
    expect(text).toContain('is not JSON');
    expect(text).not.toContain('EAAG-raw-token-pasted-alone');
  });

  it('a reCAPTCHA secret Google does not know', async () => {
    const w = world((m) => {
      m.answers.siteverify = () =>
        json({ success: false, 'error-codes': ['invalid-input-response', 'invalid-input-secret'] });
    });
    const { report, blocking, text } = await preflight(complete, w);
    expect(blocking).toEqual(['secret:provider.recaptchaSecret']);
    expect(text).toContain('invalid-input-secret');
    expect(report.exitCode).toBe(1);
  });

  it('a WhatsApp token Meta refuses (401)', async () => {
    const w = world((m) => {
      m.answers.phone = () =>
        json(
          {
            error: { message: 'Error validating access token: Session has expired', type: 'OAuthException', code: 190 },
          },
          401,
        );
    });
    const { report, blocking, text } = await preflight(complete, w);
    expect(blocking).toEqual(['secret:provider.whatsappToken']);
    expect(text).toContain('Meta refused the WhatsApp token');
    expect(text).not.toContain(secretValues.whatsappToken);
    expect(report.exitCode).toBe(1);
  });

  it('a Lambda concurrency quota of a new account (10)', async () => {
    const w = world((m) =>
      m.lambda.on(GetAccountSettingsCommand).resolves({ AccountLimit: { ConcurrentExecutions: 10 } }),
    );
    const { report, blocking, text } = await preflight(complete, w);
    expect(blocking).toEqual(['quota.lambdaConcurrency']);
    expect(text).toContain('L-B99A9384');
    expect(report.exitCode).toBe(1);
  });

  it('no CDKToolkit in us-east-1 (the firewall region), with ap-south-1 bootstrapped', async () => {
    const w = world((m) =>
      m.edge.on(DescribeStacksCommand, { StackName: 'CDKToolkit' }).rejects(notFound('CDKToolkit')),
    );
    const { report, blocking, text } = await preflight(complete, w);
    expect(blocking).toEqual(['bootstrap.us-east-1']);
    expect(text).toContain('/us-east-1');
    expect(text).toContain('ap-south-1 bootstrapped');
    expect(report.exitCode).toBe(1);
  });

  it('a failed first create of the Data stack', async () => {
    const w = world((m) =>
      m.cfn
        .on(DescribeStacksCommand, { StackName: 'Membership-prod-Data' })
        .resolves({ Stacks: [stack('Membership-prod-Data', {}, 'ROLLBACK_COMPLETE')] }),
    );
    const { blocking, text } = await preflight(complete, w);
    expect(blocking).toEqual(['stack:Membership-prod-Data']);
    expect(text).toContain('aws cloudformation delete-stack --stack-name Membership-prod-Data');
  });
});

describe('what degrades warns, without blocking', () => {
  it('a permission the operator lacks: the check is named as not made, the others go on', async () => {
    const denied = Object.assign(new Error('User is not authorized to perform: SNS:GetTopicAttributes'), {
      name: 'AuthorizationErrorException',
    });
    const w = world((m) => m.sns.on(GetTopicAttributesCommand).rejects(denied));
    const { report, warnings, text } = await preflight(complete, w);
    expect(warnings).toEqual(['aws:sns:GetTopicAttributes']);
    expect(text).toContain("The alarm topic's policy was not checked");
    expect(text).toContain('confirmed subscription');
    expect(report.exitCode).toBe(0);
  });

  it('a template not approved, and a tier unlike the settings', async () => {
    const w = world((m) => {
      m.answers.templates = (name) =>
        name === 'welcome_message'
          ? json({
              data: [
                { name, language: 'en_US', status: 'APPROVED' },
                { name, language: 'ta', status: 'PENDING' },
              ],
            })
          : approvedTemplates(name);
      m.answers.phone = () =>
        json({
          display_phone_number: '+91 98765 43210',
          quality_rating: 'GREEN',
          whatsapp_business_manager_messaging_limit: 'TIER_2K',
        });
    });
    const { report, warnings, text } = await preflight(complete, w);
    expect(warnings).toEqual(['messaging.whatsappTier.uniqueRecipientsPer24h', 'whatsapp.template.welcome_message.ta']);
    expect(text).toContain('is PENDING, not APPROVED');
    expect(text).toContain('uniqueRecipientsPer24h to 2000');
    expect(report.exitCode).toBe(0);
  });

  it('withdrawal confirmations on: their WhatsApp template is checked in both languages, and no SMS template warns', async () => {
    const messaging = {
      ...complete.messaging,
      withdrawalConfirmations: { enabled: true, whatsappTemplate: withdrawal },
    };
    const w = world((m) => {
      m.answers.templates = (name) =>
        name === withdrawal.name
          ? json({ data: [{ name, language: 'en', status: 'APPROVED' }] })
          : approvedTemplates(name);
    });
    const { report, warnings, text } = await preflight({ ...complete, messaging }, w);
    expect(warnings).toEqual(['messaging.sms.templates.withdrawn', 'whatsapp.template.withdrawal_confirmed.ta']);
    expect(text).toContain('withdrawal_confirmed in ta (the withdrawal confirmation) does not exist');
    expect(report.exitCode).toBe(0);
    // Registered on DLT too: nothing more to say.
    const sms = {
      ...messaging.sms!,
      templates: { ...messaging.sms!.templates, withdrawn: { en: dlt('1107000000000000005', 'Withdrawn.') } },
    };
    const ready = await preflight({ ...complete, messaging: { ...messaging, sms } }, world());
    expect(ready.warnings).toEqual([]);
  });

  it('no business account id: the templates are not checked, and the fix says where to find it', async () => {
    const config = { ...complete, whatsapp: { ...complete.whatsapp, businessAccountId: undefined } };
    const w = world();
    const { warnings, text } = await preflight(config, w);
    expect(warnings).toEqual(['whatsapp.businessAccountId']);
    expect(text).toContain('WhatsApp Business Account ID');
    expect(w.calls.some((c) => c.url.includes('message_templates'))).toBe(false);
  });

  it("the SMS spend limit of a new account (1 USD) and the sandbox, as the fallback's faults", async () => {
    const w = world((m) => {
      m.sms.on(DescribeSpendLimitsCommand).resolves({
        SpendLimits: [{ Name: 'TEXT_MESSAGE_MONTHLY_SPEND_LIMIT', EnforcedLimit: 1, MaxLimit: 1, Overridden: false }],
      });
      m.sms
        .on(DescribeAccountAttributesCommand)
        .resolves({ AccountAttributes: [{ Name: 'ACCOUNT_TIER', Value: 'SANDBOX' }] });
    });
    const { report, warnings, text } = await preflight(complete, w);
    expect(warnings).toEqual(['sms.sandbox', 'quota.smsSpendLimit']);
    expect(text).toContain(`one rally sends about ${rallySmsSpend().parts}`);
    expect(report.exitCode).toBe(0);
  });
});

describe('the firewall turned off', () => {
  const withoutWaf: StageConfig = { ...complete, waf: { ...complete.waf, enabled: false } };

  it('finds the Edge stack left in us-east-1 and says to deploy App first, then delete it', async () => {
    const { report, warnings, text } = await preflight(withoutWaf, world());
    expect(warnings).toEqual(['stack:Membership-prod-Edge']);
    expect(report.exitCode).toBe(0);
    expect(text).toContain('npx cdk deploy Membership-prod-App -c stage=prod');
    expect(text).toContain('aws cloudformation delete-stack --stack-name Membership-prod-Edge --region us-east-1');
  });

  it('says nothing once the Edge stack is gone', async () => {
    const w = world((m) =>
      m.edge.on(DescribeStacksCommand, { StackName: 'Membership-prod-Edge' }).rejects(notFound('Membership-prod-Edge')),
    );
    const { warnings, notes } = await preflight(withoutWaf, w);
    expect(warnings).toEqual([]);
    expect(notes).toEqual(['captcha.domains']);
  });
});

describe('what the stage needs of the account', () => {
  it("prod: docs/CAPACITY.md's 270 reserved + 100 unreserved + the other functions' 129", () => {
    expect(concurrencyNeeds(complete)).toEqual({ reserved: 270, unreservedPeak: 129, floor: 370, need: 499 });
  });
  it('a stage without reservations needs only its throttled peak', () => {
    const dev = loadStageConfig('dev');
    expect(concurrencyNeeds(dev).floor).toBe(0);
    expect(concurrencyNeeds(dev).need).toBeGreaterThan(10);
  });
});
