import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { publicFlowEnvSchema, smsTemplatesSchema, whatsappDecisionTemplatesSchema } from '../../lambdas/lib/env';
import { routes } from '../../lib/api-routes';
import { addMembershipStacks, addNagChecks, stackNames } from '../../lib/constructs/membership-stacks';
import { pascalCase, projectRoot } from '../../lib/constructs/project-function';
import { apiForwardedHeaders, originVerifyHeader } from '../../lib/constructs/web-hosting';
import { edgeRuleNames } from '../../lib/constructs/edge-firewall';
import { backgroundFunctions, handlerNeeds, secretEnvVars } from '../../lib/functions';
import { METRICS_NAMESPACE, stageMetricDimensions } from '../../contracts/metric-definitions';
import { rallyLimits, rallyModel } from '../../lib/rally-model';
import { loadStageConfig, stageConfigSchema, stageConfigs } from '../../lib/stages';

// Issue 12, the infrastructure side: SMS through End User Messaging SMS (configuration
// set, events topic, a send permission scoped to the stage's configuration set and sender
// id), Meta's webhook routes, the viewer's address through CloudFront, the messaging
// settings each function gets, the rally model's numbers in prod, and the new alarms.
// One synthesis of prod, bundling skipped (the code is not the point here).

type Json = Record<string, unknown>;
interface Resource {
  readonly Type: string;
  readonly Properties: Json;
  readonly DependsOn?: string[];
}
interface TemplateJson {
  readonly Resources: Record<string, Resource>;
  readonly Outputs?: Record<string, { Value: unknown; Export?: { Name: string } }>;
}

const config = loadStageConfig('prod');
const names = stackNames(config);
const rally = rallyLimits();
let workDir: string;
let data: TemplateJson;
let app: TemplateJson;
let edge: TemplateJson;

beforeAll(() => {
  workDir = mkdtempSync(path.join(tmpdir(), 'membership-messaging-'));
  const web = path.join(workDir, 'web');
  mkdirSync(web, { recursive: true });
  writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>test</title>');
  const cdkApp = new App({
    outdir: path.join(workDir, 'cdk.out'),
    context: { 'aws:cdk:bundling-stacks': [], '@aws-cdk/core:failSynthOnValidationErrors': false },
  });
  addMembershipStacks(cdkApp, config, web);
  addNagChecks(cdkApp);
  const assembly = cdkApp.synth();
  data = assembly.getStackByName(names.data).template as TemplateJson;
  app = assembly.getStackByName(names.app).template as TemplateJson;
  edge = assembly.getStackByName(names.edge).template as TemplateJson;
});

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

const ofType = (t: TemplateJson, type: string) => Object.entries(t.Resources).filter(([, r]) => r.Type === type);
const single = (t: TemplateJson, type: string) => {
  const found = ofType(t, type);
  expect(found, type).toHaveLength(1);
  return found[0]!;
};
const projectFunctions = () =>
  ofType(app, 'AWS::Lambda::Function').filter(
    ([, r]) => ((r.Properties.Environment as Json | undefined)?.Variables as Json | undefined)?.STAGE !== undefined,
  );
const functionByHandler = (handler: string) => {
  const pattern = new RegExp(`^${pascalCase(handler)}Function[0-9A-F]{8}$`);
  const found = projectFunctions().find(([id]) => pattern.test(id));
  if (!found) throw new Error(`No function for handler ${handler}`);
  return found;
};
const envOf = (handler: string) =>
  (functionByHandler(handler)[1].Properties.Environment as { Variables: Json }).Variables;
const statementsOf = (handler: string) => {
  const roleId = ((functionByHandler(handler)[1].Properties.Role as Json)['Fn::GetAtt'] as string[])[0];
  return ofType(app, 'AWS::IAM::Policy')
    .filter(([, p]) => (p.Properties.Roles as Json[]).some((r) => r.Ref === roleId))
    .flatMap(([, p]) => (p.Properties.PolicyDocument as { Statement: Json[] }).Statement);
};
const actionsOf = (statement: Json) =>
  (Array.isArray(statement.Action) ? statement.Action : [statement.Action]) as string[];
/** A resolved Fn::Join of a partition-and-account ARN, as the text it joins. */
const joined = (value: unknown): string => {
  const join = (value as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
  if (!join) return JSON.stringify(value);
  return join[1].map((part) => (typeof part === 'string' ? part : `<${JSON.stringify(part)}>`)).join(join[0]);
};
const account = `<${JSON.stringify({ Ref: 'AWS::AccountId' })}>`;
const partition = `<${JSON.stringify({ Ref: 'AWS::Partition' })}>`;
const sms = config.messaging.sms!;
const configurationSetArn = `arn:${partition}:sms-voice:${config.region}:${account}:configuration-set/membership-prod-sms`;
const senderIdArn = `arn:${partition}:sms-voice:${config.region}:${account}:sender-id/${sms.originationIdentity}/${sms.isoCountryCode}`;

describe('messaging settings (lib/stages.ts)', () => {
  const withMessaging = (messaging: Json) => ({ ...stageConfigs.dev, messaging });

  it('refuses SMS channels without an sms block, and WhatsApp alone needs none', () => {
    for (const otpChannels of ['sms', 'whatsapp-then-sms']) {
      const result = stageConfigSchema.safeParse(withMessaging({ otpChannels }));
      expect(result.success, otpChannels).toBe(false);
      expect(JSON.stringify(result.error?.issues), otpChannels).toContain('sms block');
    }
    expect(stageConfigSchema.safeParse(withMessaging({ otpChannels: 'whatsapp' })).success).toBe(true);
    expect(stageConfigSchema.safeParse(withMessaging({ otpChannels: 'sms', sms })).success).toBe(true);
  });

  it('takes only WhatsApp tiers, a quiet period SQS can delay, and decision notices with a channel to go by', () => {
    const ok = (messaging: Json) => stageConfigSchema.safeParse(withMessaging(messaging)).success;
    expect(ok({ whatsappTier: { uniqueRecipientsPer24h: 2000 } })).toBe(true);
    expect(ok({ whatsappTier: { uniqueRecipientsPer24h: 0 } })).toBe(true);
    expect(ok({ whatsappTier: { uniqueRecipientsPer24h: 1000 } })).toBe(false);
    expect(ok({ decisionNotices: { enabled: false, quietPeriodSeconds: 901 } })).toBe(false);
    expect(ok({ decisionNotices: { enabled: true } })).toBe(false);
    expect(
      ok({ decisionNotices: { enabled: true, whatsappTemplates: config.messaging.decisionNotices.whatsappTemplates } }),
    ).toBe(true);
    // SMS only: WhatsApp templates do not help; the SMS decision templates do.
    expect(
      ok({
        otpChannels: 'sms',
        sms,
        decisionNotices: { enabled: true, whatsappTemplates: config.messaging.decisionNotices.whatsappTemplates },
      }),
    ).toBe(true);
    expect(
      ok({
        otpChannels: 'sms',
        sms: { ...sms, templates: { otp: sms.templates.otp } },
        decisionNotices: { enabled: true },
      }),
    ).toBe(false);
    // The withdrawal's confirmation (issue 21): its WhatsApp template has a default; SMS only needs the SMS one.
    expect(ok({ withdrawalConfirmations: { enabled: true } })).toBe(true);
    expect(ok({ otpChannels: 'sms', sms, withdrawalConfirmations: { enabled: true } })).toBe(true);
    expect(
      ok({
        otpChannels: 'sms',
        sms: { ...sms, templates: { otp: sms.templates.otp } },
        withdrawalConfirmations: { enabled: true },
      }),
    ).toBe(false);
    expect(ok({ withdrawalConfirmations: { enabled: true, whatsappTemplate: { name: 'x' } } })).toBe(false);
  });

  it('holds the SMS templates and decision templates in the very shape the functions parse', () => {
    for (const stage of ['dev', 'staging', 'prod'] as const) {
      const c = loadStageConfig(stage);
      expect(c.messaging.otpChannels, stage).toBe('whatsapp-then-sms');
      expect(v.safeParse(smsTemplatesSchema, c.messaging.sms?.templates).success, stage).toBe(true);
      expect(v.safeParse(whatsappDecisionTemplatesSchema, c.messaging.decisionNotices.whatsappTemplates).success).toBe(
        true,
      );
    }
    // The registered Tamil text is Unicode, as DLT holds it.
    expect(sms.templates.otp.ta?.text).toMatch(/[\u0B80-\u0BFF]/);
    expect(sms.templates.otp.en.text).toContain('{#var#}');
  });
});

describe('SMS through End User Messaging SMS', () => {
  it("creates the stage's configuration set, publishing every text event to an encrypted topic", () => {
    const [topicId, topic] = ofType(app, 'AWS::SNS::Topic').find(([id]) => id.startsWith('SmsEventsTopic'))!;
    const [, configurationSet] = single(app, 'AWS::SMSVOICE::ConfigurationSet');
    expect(configurationSet.Properties).toEqual({
      ConfigurationSetName: 'membership-prod-sms',
      DefaultSenderId: sms.originationIdentity,
      EventDestinations: [
        {
          EventDestinationName: 'delivery-events',
          Enabled: true,
          MatchingEventTypes: ['TEXT_ALL'],
          SnsDestination: { TopicArn: { Ref: topicId } },
        },
      ],
    });
    // Encrypted with a key of ours (rotated), which End User Messaging SMS may use for this configuration set only.
    const keyId = ((topic.Properties.KmsMasterKeyId as Json)['Fn::GetAtt'] as string[])[0]!;
    const key = app.Resources[keyId]!;
    expect(key.Properties.EnableKeyRotation).toBe(true);
    const keyStatements = (key.Properties.KeyPolicy as { Statement: Json[] }).Statement;
    const smsVoiceOnKey = keyStatements.filter((st) =>
      JSON.stringify(st.Principal).includes('sms-voice.amazonaws.com'),
    );
    expect(smsVoiceOnKey).toHaveLength(1);
    expect(actionsOf(smsVoiceOnKey[0]!).sort()).toEqual(['kms:Decrypt', 'kms:GenerateDataKey*']);
    expect(joined((smsVoiceOnKey[0]!.Condition as { ArnLike: Json }).ArnLike['aws:SourceArn'])).toBe(
      configurationSetArn,
    );
    // The topic: TLS only, and published to by End User Messaging SMS for this configuration set only.
    const [policyId, policy] = ofType(app, 'AWS::SNS::TopicPolicy').find(([, p]) =>
      JSON.stringify(p.Properties.Topics).includes(topicId),
    )!;
    const statements = (policy.Properties.PolicyDocument as { Statement: Json[] }).Statement;
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    const publish = statements.find((st) => st.Effect === 'Allow')!;
    expect(publish).toMatchObject({
      Principal: { Service: 'sms-voice.amazonaws.com' },
      Action: 'sns:Publish',
      Resource: { Ref: topicId },
    });
    expect(joined((publish.Condition as { ArnLike: Json }).ArnLike['aws:SourceArn'])).toBe(configurationSetArn);
    expect((publish.Condition as { StringEquals: Json }).StringEquals).toEqual({
      'aws:SourceAccount': { Ref: 'AWS::AccountId' },
    });
    // The configuration set is created once its destination accepts it.
    expect(configurationSet.DependsOn).toEqual(expect.arrayContaining([policyId, keyId]));
  });

  it('feeds the events to the sms-events function, with an alarmed queue for what it cannot record', () => {
    const [topicId] = ofType(app, 'AWS::SNS::Topic').find(([id]) => id.startsWith('SmsEventsTopic'))!;
    const [consumerId] = functionByHandler(backgroundFunctions.smsEvents.handler);
    const subscriptions = ofType(app, 'AWS::SNS::Subscription').filter(([, s]) => s.Properties.Protocol === 'lambda');
    expect(subscriptions.map(([, s]) => s.Properties)).toEqual([
      expect.objectContaining({ TopicArn: { Ref: topicId }, Endpoint: { 'Fn::GetAtt': [consumerId, 'Arn'] } }),
    ]);
    const [, invokeConfig] = single(app, 'AWS::Lambda::EventInvokeConfig');
    expect(invokeConfig.Properties).toMatchObject({ FunctionName: { Ref: consumerId }, MaximumRetryAttempts: 2 });
    const queueArn = (invokeConfig.Properties.DestinationConfig as { OnFailure: { Destination: Json } }).OnFailure
      .Destination;
    const queueId = (queueArn['Fn::GetAtt'] as string[])[0];
    const alarm = ofType(app, 'AWS::CloudWatch::Alarm').find(
      ([, a]) => a.Properties.AlarmName === 'membership-prod-sms-events-dead-letters',
    )!;
    expect(alarm[1].Properties).toMatchObject({
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } }],
      Threshold: 1,
    });
  });

  it('lets exactly the sending functions send, from the configuration set and the sender id only', () => {
    const senders = [
      ...new Set([
        ...routes.filter((r) => r.sendsSms).map((r) => r.handler),
        ...Object.values(backgroundFunctions)
          .filter((f) => 'sendsSms' in f && f.sendsSms)
          .map((f) => f.handler),
      ]),
    ].sort();
    expect(senders).toEqual(['otp-request', 'outbound-consumer']);
    for (const [id] of projectFunctions()) {
      const handler = [
        ...new Set([...routes.map((r) => r.handler), ...Object.values(backgroundFunctions).map((f) => f.handler)]),
      ].find((h) => new RegExp(`^${pascalCase(h)}Function[0-9A-F]{8}$`).test(id))!;
      const smsStatements = statementsOf(handler).filter((st) => actionsOf(st).some((a) => a.startsWith('sms-voice:')));
      if (!senders.includes(handler)) {
        expect(smsStatements, handler).toEqual([]);
        continue;
      }
      expect(smsStatements, handler).toHaveLength(1);
      const [statement] = smsStatements;
      expect(statement!.Effect).toBe('Allow');
      expect(actionsOf(statement!), handler).toEqual(['sms-voice:SendTextMessage']);
      expect(statement!.Condition, handler).toBeUndefined();
      const resources = (statement!.Resource as unknown[]).map(joined).sort();
      expect(resources, handler).toEqual([configurationSetArn, senderIdArn].sort());
      for (const resource of resources) expect(resource, handler).not.toContain('*');
    }
    // Nowhere in the template may anything send SMS with a wildcard.
    const everySmsStatement = ofType(app, 'AWS::IAM::Policy').flatMap(([, p]) =>
      (p.Properties.PolicyDocument as { Statement: Json[] }).Statement.filter((st) =>
        actionsOf(st).some((a) => a.startsWith('sms-voice:')),
      ),
    );
    expect(everySmsStatement).toHaveLength(senders.length);
    expect(JSON.stringify(everySmsStatement)).not.toMatch(/"\*"|sms-voice:\*/);
  });
});

describe('the messaging settings each function gets', () => {
  const asText = (env: Json) =>
    Object.fromEntries(Object.entries(env).map(([k, v]) => [k, typeof v === 'string' ? v : `token-of-${k}`]));

  it('gives the public flow and the outbound consumer every messaging variable, parsed as the functions parse them', () => {
    for (const handler of ['otp-request', 'otp-status', 'otp-verify', 'applications-submit', 'outbound-consumer']) {
      const env = envOf(handler);
      const parsed = v.safeParse(publicFlowEnvSchema, asText(env));
      expect(parsed.success, `${handler}: ${JSON.stringify(parsed.issues)}`).toBe(true);
      const settings = parsed.output;
      expect(settings, handler).toMatchObject({
        OTP_CHANNELS: config.messaging.otpChannels,
        OTP_SMS_OFFER_AFTER_SECONDS: config.messaging.smsOfferAfterSeconds,
        WHATSAPP_TIER_UNIQUE_PER_24H: config.messaging.whatsappTier.uniqueRecipientsPer24h,
        WHATSAPP_MESSAGES_PER_SECOND: config.messaging.whatsappMessagesPerSecond,
        SMS_MESSAGES_PER_SECOND: sms.messagesPerSecond,
        SMS_CONFIGURATION_SET: 'membership-prod-sms',
        SMS_ENTITY_ID: sms.entityId,
        SMS_TEMPLATES: sms.templates,
        DECISION_NOTICES_ENABLED: config.messaging.decisionNotices.enabled,
        DECISION_QUIET_SECONDS: config.messaging.decisionNotices.quietPeriodSeconds,
        WHATSAPP_DECISION_TEMPLATES: config.messaging.decisionNotices.whatsappTemplates,
        WITHDRAWAL_CONFIRMATIONS_ENABLED: config.messaging.withdrawalConfirmations.enabled,
        WHATSAPP_WITHDRAWAL_TEMPLATE: config.messaging.withdrawalConfirmations.whatsappTemplate,
        OTP_MAX_PER_IP_PER_HOUR: config.limits.otpMaxPerIpPerHour,
      });
      // The origination identity is the sender id's ARN: the resource the permission names.
      expect(joined(env.SMS_ORIGINATION_IDENTITY), handler).toBe(senderIdArn);
    }
  });

  it('tells the status change (which queues decision notices) whether and when to notify', () => {
    expect(handlerNeeds(routes, 'applications-status').sendsOutbound).toBe(true);
    expect(envOf('applications-status')).toMatchObject({
      DECISION_NOTICES_ENABLED: String(config.messaging.decisionNotices.enabled),
      DECISION_QUIET_SECONDS: String(config.messaging.decisionNotices.quietPeriodSeconds),
      OUTBOUND_QUEUE_URL: expect.anything() as unknown,
    });
  });

  it('gives the webhook its tables and the provider secret, and no public-flow settings', () => {
    const env = envOf('whatsapp-webhook');
    expect(Object.keys(env)).toContain(secretEnvVars.provider);
    expect(Object.keys(env)).toContain('TABLE_DELIVERIES');
    expect(Object.keys(env)).not.toContain(secretEnvVars.otpHashKey);
    expect(Object.keys(env)).not.toContain(secretEnvVars.signingKey);
    expect(Object.keys(env)).not.toContain('OTP_TTL_SECONDS');
  });
});

describe("Meta's webhook routes", () => {
  it('are public, with no authorizer, and served by one function', () => {
    const webhookRoutes = ofType(app, 'AWS::ApiGatewayV2::Route').filter(([, r]) =>
      String(r.Properties.RouteKey).endsWith(' /api/whatsapp/webhook'),
    );
    expect(webhookRoutes.map(([, r]) => r.Properties.RouteKey).sort()).toEqual([
      'GET /api/whatsapp/webhook',
      'POST /api/whatsapp/webhook',
    ]);
    const targets = new Set<string>();
    for (const [id, route] of webhookRoutes) {
      expect(route.Properties.AuthorizationType, id).toBe('NONE');
      expect(route.Properties.AuthorizerId, id).toBeUndefined();
      const integrationId = joined(route.Properties.Target).match(/"Ref":"(\w+)"/)![1]!;
      const uri = JSON.stringify(app.Resources[integrationId]!.Properties.IntegrationUri);
      targets.add(uri);
    }
    expect(targets.size).toBe(1);
    expect([...targets][0]).toContain(functionByHandler('whatsapp-webhook')[0]);
  });
});

describe("the viewer's address", () => {
  const distributionConfig = () =>
    single(app, 'AWS::CloudFront::Distribution')[1].Properties.DistributionConfig as {
      CacheBehaviors: Json[];
      Origins: Json[];
    };
  const apiBehavior = () => distributionConfig().CacheBehaviors.find((b) => b.PathPattern === '/api/*')!;

  it('is forwarded to the API by the /api/* origin request policy (CloudFront sets it; the Host header stays out)', () => {
    const policyId = (apiBehavior().OriginRequestPolicyId as { Ref: string }).Ref;
    const policy = app.Resources[policyId]!;
    expect(policy.Type).toBe('AWS::CloudFront::OriginRequestPolicy');
    const headers = (
      policy.Properties.OriginRequestPolicyConfig as { HeadersConfig: { HeaderBehavior: string; Headers: string[] } }
    ).HeadersConfig;
    expect(headers.HeaderBehavior).toBe('whitelist');
    expect(headers.Headers).toContain('CloudFront-Viewer-Address');
    expect(headers.Headers).toEqual([...apiForwardedHeaders]);
    expect(headers.Headers.map((h) => h.toLowerCase())).not.toContain('host');
    // The webhook's signature reaches the function.
    expect(headers.Headers).toContain('X-Hub-Signature-256');
    // Never the origin token itself: CloudFront adds it, and replaces a viewer's header of that name.
    expect(headers.Headers.map((h) => h.toLowerCase())).not.toContain(originVerifyHeader);
  });

  it('is trusted only beside the origin token, which CloudFront sends from the origin secret by dynamic reference', () => {
    const origin = distributionConfig().Origins.find((o) => o.Id === apiBehavior().TargetOriginId)!;
    expect(origin.OriginCustomHeaders).toHaveLength(1);
    const [header] = origin.OriginCustomHeaders as { HeaderName: string; HeaderValue: unknown }[];
    expect(header!.HeaderName).toBe(originVerifyHeader);
    const value = header!.HeaderValue as { 'Fn::Join': [string, unknown[]] };
    const [start, secretArn, end] = value['Fn::Join'][1];
    expect(start).toBe('{{resolve:secretsmanager:');
    expect(end).toBe(':SecretString:current::}}');
    // The origin secret of the Data stack, through its export: generated, with room for the previous token.
    const exportName = (secretArn as { 'Fn::ImportValue': string })['Fn::ImportValue'];
    const output = Object.values(data.Outputs ?? {}).find((o) => o.Export?.Name === exportName)!;
    const secretId = (output.Value as { Ref: string }).Ref;
    expect(secretId).toMatch(/^SecretsOriginSecret/);
    expect(data.Resources[secretId]!.Properties.GenerateSecretString).toMatchObject({
      GenerateStringKey: 'current',
      SecretStringTemplate: JSON.stringify({ previous: '' }),
    });
    // No way around it: the API's own URL is not an output any more.
    expect(Object.keys(app.Outputs ?? {}).some((key) => /ExecuteApi/.test(key))).toBe(false);
  });
});

describe('the rally model (lib/rally-model.ts, docs/CAPACITY.md) is what prod synthesizes', () => {
  it('throttles the stage and each public route as the model sizes them', () => {
    const [, stage] = single(app, 'AWS::ApiGatewayV2::Stage');
    expect(stage.Properties.DefaultRouteSettings).toMatchObject({
      ThrottlingRateLimit: rally.stageDefault.rateLimit,
      ThrottlingBurstLimit: rally.stageDefault.burstLimit,
    });
    const settings = stage.Properties.RouteSettings as Record<string, Json>;
    expect(Object.keys(rally.routes).sort()).toEqual(
      routes
        .filter((r) => r.access === 'public' && r.method === 'POST')
        .map((r) => `${r.method} ${r.path}`)
        .sort(),
    );
    for (const [key, limit] of Object.entries(rally.routes)) {
      expect(settings[key], key).toMatchObject({
        ThrottlingRateLimit: limit.rateLimit,
        ThrottlingBurstLimit: limit.burstLimit,
      });
    }
    // The code request at the rally's peak (50 visitors a second, 1.2 requests each) fits.
    expect(rally.routes['POST /api/otp/request'].rateLimit).toBeGreaterThanOrEqual(
      rallyModel.peakArrivalsPerSecond * rallyModel.perVisitor.codeRequests,
    );
  });

  it("sets the firewall's per-address limit and the app's per-address limit for 2,000 phones behind one address", () => {
    const [, acl] = single(edge, 'AWS::WAFv2::WebACL');
    const rule = (acl.Properties.Rules as Json[]).find((r) => r.Name === edgeRuleNames.otpRequestRate)!;
    expect(rule.Statement).toMatchObject({
      RateBasedStatement: { Limit: rally.wafOtpRequestsPer5Minutes, EvaluationWindowSec: 300, AggregateKeyType: 'IP' },
    });
    expect(rally.wafOtpRequestsPer5Minutes).toBeGreaterThanOrEqual(
      rallyModel.phonesBehindOneAddress * rallyModel.perVisitor.codeRequests,
    );
    expect(envOf('otp-request').OTP_MAX_PER_IP_PER_HOUR).toBe(String(rally.otpMaxPerIpPerHour));
  });

  it("reserves the code request's concurrency and caps the outbound consumer at its channel share", () => {
    expect(functionByHandler('otp-request')[1].Properties.ReservedConcurrentExecutions).toBe(rally.otpRequestReserved);
    for (const [id, fn] of projectFunctions()) {
      if (!id.startsWith('OtpRequestFunction')) expect(fn.Properties.ReservedConcurrentExecutions, id).toBeUndefined();
    }
    const [consumerId] = functionByHandler(backgroundFunctions.outboundConsumer.handler);
    const mapping = ofType(app, 'AWS::Lambda::EventSourceMapping').find(
      ([, m]) => JSON.stringify(m.Properties.FunctionName) === JSON.stringify({ Ref: consumerId }),
    )!;
    expect(mapping[1].Properties).toMatchObject({
      BatchSize: rallyModel.outboundBatchSize,
      ScalingConfig: { MaximumConcurrency: rally.outboundMaxConcurrency },
    });
    expect(envOf('outbound-consumer').OUTBOUND_MAX_CONCURRENCY).toBe(String(rally.outboundMaxConcurrency));
    // The consumer's sends stay inside its share of WhatsApp's 80 messages a second.
    expect(rally.outboundMaxConcurrency / rallyModel.durationSeconds['outbound-send']).toBeLessThanOrEqual(
      rallyModel.whatsappMessagesPerSecond * (1 - rallyModel.whatsappShareForCodes),
    );
    // Peak concurrency and the reservation fit an account of 1,000 with 100 left unreserved.
    expect(rally.concurrencyTotal - rally.concurrency['otp-request'] + rally.otpRequestReserved).toBeLessThanOrEqual(
      900,
    );
  });

  it('sends at the channel rates the model needs', () => {
    const env = envOf('otp-request');
    expect(env.WHATSAPP_MESSAGES_PER_SECOND).toBe(String(rallyModel.whatsappMessagesPerSecond));
    expect(env.WHATSAPP_TIER_UNIQUE_PER_24H).toBe(String(rallyModel.whatsappTierUniquePer24h));
    expect(env.SMS_MESSAGES_PER_SECOND).toBe(String(rally.smsPartsPerSecond));
  });

  it('is written down in docs/CAPACITY.md with the same numbers', () => {
    const doc = readFileSync(path.join(projectRoot, 'docs', 'CAPACITY.md'), 'utf8');
    for (const [key, limit] of Object.entries(rally.routes)) {
      const cells = [`\`${key}\``, limit.rateLimit, limit.burstLimit].map((cell) => `\\s*${String(cell)}\\s*`);
      expect(doc, key).toMatch(new RegExp(`\\|${cells.join('\\|')}\\|`));
    }
    for (const value of [
      rally.wafOtpRequestsPer5Minutes,
      rally.otpMaxPerIpPerHour,
      rally.otpRequestReserved,
      rally.outboundMaxConcurrency,
      rally.smsPartsPerSecond,
    ]) {
      expect(doc).toContain(`**${value.toLocaleString('en-US')}**`);
    }
  });
});

describe('messaging alarms', () => {
  const alarms = () =>
    new Map(ofType(app, 'AWS::CloudWatch::Alarm').map(([, a]) => [String(a.Properties.AlarmName), a.Properties]));

  it('alarms on the delivery rate of each channel, judged only with enough messages', () => {
    for (const channel of ['whatsapp', 'sms']) {
      const props = alarms().get(`membership-prod-delivery-rate-${channel}`)!;
      expect(props, channel).toMatchObject({
        ComparisonOperator: 'LessThanThreshold',
        Threshold: config.alarms.deliveryRate,
        EvaluationPeriods: 1,
        TreatMissingData: 'notBreaching',
      });
      expect(String(props.AlarmDescription)).toMatch(/Runbook: docs\/RUNBOOK\.md#delivery-rate$/);
      const queries = new Map((props.Metrics as Json[]).map((q) => [String(q.Id), q]));
      expect(queries.get(`expr_1`) ?? [...queries.values()].find((q) => q.Expression)).toMatchObject({
        Expression: `IF(FILL(accepted_${channel}, 0) >= ${config.alarms.deliveryMinAccepted}, FILL(delivered_${channel}, 0) / accepted_${channel}, 1)`,
      });
      for (const [id, name] of [
        [`accepted_${channel}`, 'MessageAccepted'],
        [`delivered_${channel}`, 'MessageDelivered'],
      ] as const) {
        const stat = queries.get(id)!.MetricStat as { Metric: Json; Stat: string; Period: number };
        expect(stat.Stat).toBe('Sum');
        expect(stat.Period).toBe(900);
        expect(stat.Metric.Namespace).toBe(METRICS_NAMESPACE);
        expect(stat.Metric.MetricName).toBe(name);
        const dimensions = Object.fromEntries(
          (stat.Metric.Dimensions as { Name: string; Value: string }[]).map((d) => [d.Name, d.Value]),
        );
        expect(dimensions).toEqual({ ...stageMetricDimensions('prod'), channel });
      }
    }
  });

  it("alarms at 80 % of the stage's WhatsApp tier", () => {
    const tier = config.messaging.whatsappTier;
    expect(tier.uniqueRecipientsPer24h).toBeGreaterThan(0);
    expect(alarms().get('membership-prod-whatsapp-tier')).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      MetricName: 'WhatsAppUniqueRecipients24h',
      Statistic: 'Maximum',
      Dimensions: [
        { Name: 'service', Value: 'membership' },
        { Name: 'stage', Value: 'prod' },
      ],
      Threshold: Math.ceil(tier.uniqueRecipientsPer24h * 0.8),
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect(String(alarms().get('membership-prod-whatsapp-tier')!.AlarmDescription)).toMatch(/#whatsapp-tier$/);
  });
});
