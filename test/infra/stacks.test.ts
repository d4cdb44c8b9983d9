import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../lib/api-routes';
import { providerSecretEntries } from '../../lambdas/adapters/secrets';
import { ANSWER_MARGIN_MS } from '../../lambdas/lib/time-budget';
import { providerSecretKeys } from '../../lib/constructs/app-secrets';
import { addMembershipStacks, addNagChecks, stackNames } from '../../lib/constructs/membership-stacks';
import { pascalCase } from '../../lib/constructs/project-function';
import { spaRewriteCode } from '../../lib/constructs/web-hosting';
import {
  backgroundFunctions,
  handlerNeeds,
  handlerTableGrants,
  type SecretName,
  secretEnvVars,
} from '../../lib/functions';
import { loadStageConfig } from '../../lib/stages';
import { rollupsFenceSeconds } from '../../contracts/rollups-fence';
import { allTables, tables } from '../../contracts/table-definitions';
import { parseRuntimeConfig } from '../../rules/runtime-config';

// One synthesis of the prod stage (with bundling and cdk-nag) serves every test here.

type Json = Record<string, unknown>;
interface Resource {
  readonly Type: string;
  readonly Properties?: Json;
  readonly DeletionPolicy?: string;
  readonly UpdateReplacePolicy?: string;
}
interface TemplateJson {
  readonly Resources: Record<string, Resource>;
  readonly Outputs?: Record<string, { Value: unknown; Export?: { Name: string } }>;
}
interface NagViolation {
  readonly ruleName: string;
  readonly severity: string;
  readonly description: string;
  readonly violatingConstructs?: { constructPath?: string }[];
}
interface ValidationReport {
  readonly pluginReports: { pluginName: string; violations: NagViolation[] }[];
}

/** Values an operator might have in the shell while deploying: none may reach a template. */
const sampleSecrets = {
  WHATSAPP_TOKEN: 'EAAGsampleWhatsappToken0123456789',
  WEBHOOK_PASSWORD: 'sample-webhook-password-9f8e7d',
  RECAPTCHA_SECRET: '6LsampleRecaptchaSecretXYZ',
};

const config = loadStageConfig('prod');
const names = stackNames(config);
let workDir: string;
let data: TemplateJson;
let appTemplate: TemplateJson;
let dataT: Template;
let appT: Template;
let report: ValidationReport;
let assemblyText: string;

const ofType = (t: TemplateJson, type: string) =>
  Object.entries(t.Resources).filter(([, r]) => r.Type === type) as [string, Resource & { Properties: Json }][];

/** The Data-stack resource behind a Fn::ImportValue in the App stack (strong references). */
function importedLogicalId(value: unknown): string | undefined {
  const name = (value as Json | undefined)?.['Fn::ImportValue'];
  if (typeof name !== 'string') return undefined;
  const output = Object.values(data.Outputs ?? {}).find((o) => o.Export?.Name === name);
  const ref = output?.Value as Json | undefined;
  if (!ref) return undefined;
  if (typeof ref.Ref === 'string') return ref.Ref;
  const getAtt = ref['Fn::GetAtt'];
  return Array.isArray(getAtt) ? String(getAtt[0]) : undefined;
}

/** Every Fn::ImportValue inside a value. */
function importsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(importsIn);
  if (value && typeof value === 'object') {
    const id = importedLogicalId(value);
    if (id) return [id];
    return Object.values(value).flatMap(importsIn);
  }
  return [];
}

const tableLogicalId = (name: string) =>
  ofType(data, 'AWS::DynamoDB::Table').find(([, r]) => r.Properties.TableName === `membership-prod-${name}`)?.[0];

/** Project functions (ours, not CDK's singletons) are the ones with a STAGE variable. */
const projectFunctions = () =>
  ofType(appTemplate, 'AWS::Lambda::Function').filter(
    ([, r]) => ((r.Properties.Environment as Json | undefined)?.Variables as Json | undefined)?.STAGE !== undefined,
  );

function policiesOfFunction(fn: Resource & { Properties: Json }): Json[] {
  const roleId = ((fn.Properties.Role as Json)['Fn::GetAtt'] as string[])[0];
  return ofType(appTemplate, 'AWS::IAM::Policy')
    .filter(([, p]) => (p.Properties.Roles as Json[]).some((r) => r.Ref === roleId))
    .map(([, p]) => p.Properties.PolicyDocument as Json);
}

/** A project function by handler module, from its construct id (`<Handler>Function`). */
const functionByHandler = (handler: string) => {
  const pattern = new RegExp(`^${pascalCase(handler)}Function[0-9A-F]{8}$`);
  const found = projectFunctions().find(([id]) => pattern.test(id));
  if (!found) throw new Error(`No function for handler ${handler}`);
  return found;
};

beforeAll(() => {
  workDir = mkdtempSync(path.join(tmpdir(), 'membership-infra-'));
  const web = path.join(workDir, 'web');
  mkdirSync(path.join(web, 'assets'), { recursive: true });
  writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>test</title><div id="root"></div>');
  writeFileSync(path.join(web, 'assets', 'index-abc123.js'), 'console.log("spa")');

  const saved = { ...process.env };
  Object.assign(process.env, sampleSecrets);
  try {
    const outdir = path.join(workDir, 'cdk.out');
    // Keep the assembly even when cdk-nag reports errors, so that the nag test can show them.
    const app = new App({ outdir, context: { '@aws-cdk/core:failSynthOnValidationErrors': false } });
    addMembershipStacks(app, config, web);
    addNagChecks(app);
    const assembly = app.synth();
    data = assembly.getStackByName(names.data).template as TemplateJson;
    appTemplate = assembly.getStackByName(names.app).template as TemplateJson;
    dataT = Template.fromJSON(data);
    appT = Template.fromJSON(appTemplate);
    report = JSON.parse(readFileSync(path.join(outdir, 'validation-report.json'), 'utf8')) as ValidationReport;
    assemblyText = JSON.stringify([data, appTemplate]);
  } finally {
    process.env = saved;
  }
});

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe('data tables', () => {
  it('builds every table of contracts/table-definitions.ts with its keys', () => {
    expect(ofType(data, 'AWS::DynamoDB::Table')).toHaveLength(allTables.length);
    for (const def of allTables) {
      const keySchema = [{ AttributeName: def.partitionKey.name, KeyType: 'HASH' }];
      if (def.sortKey) keySchema.push({ AttributeName: def.sortKey.name, KeyType: 'RANGE' });
      dataT.hasResourceProperties('AWS::DynamoDB::Table', {
        TableName: `membership-prod-${def.name}`,
        KeySchema: keySchema,
        BillingMode: 'PAY_PER_REQUEST',
        SSESpecification: { SSEEnabled: true },
      });
    }
  });

  it('has point-in-time recovery and deletion protection on every table, retained in prod', () => {
    for (const [id, table] of ofType(data, 'AWS::DynamoDB::Table')) {
      expect(table.Properties.PointInTimeRecoverySpecification, id).toEqual({ PointInTimeRecoveryEnabled: true });
      expect(table.Properties.DeletionProtectionEnabled, id).toBe(true);
      expect(table.DeletionPolicy, id).toBe('RetainExceptOnCreate');
      expect(table.UpdateReplacePolicy, id).toBe('Retain');
    }
  });

  it('expires OTPs and rate-limit counters by TTL, as defined', () => {
    expect(tables.otps.ttlAttribute).toBeDefined();
    expect(tables.rateLimits.ttlAttribute).toBeDefined();
    for (const def of allTables) {
      const [, table] = ofType(data, 'AWS::DynamoDB::Table').find(([id]) => id === tableLogicalId(def.name))!;
      expect(table.Properties.TimeToLiveSpecification, def.name).toEqual(
        def.ttlAttribute ? { AttributeName: def.ttlAttribute, Enabled: true } : undefined,
      );
    }
  });

  it('streams new and old images of applications, and only there', () => {
    for (const def of allTables) {
      const [, table] = ofType(data, 'AWS::DynamoDB::Table').find(([id]) => id === tableLogicalId(def.name))!;
      expect(table.Properties.StreamSpecification, def.name).toEqual(
        def.stream ? { StreamViewType: def.stream } : undefined,
      );
    }
    expect(tables.applications.stream).toBe('NEW_AND_OLD_IMAGES');
  });

  it('has every global secondary index of the definitions, projecting all attributes', () => {
    for (const def of allTables) {
      const [, table] = ofType(data, 'AWS::DynamoDB::Table').find(([id]) => id === tableLogicalId(def.name))!;
      const indexes = (table.Properties.GlobalSecondaryIndexes as Json[] | undefined) ?? [];
      expect(indexes.map((i) => i.IndexName).sort(), def.name).toEqual(def.indexes.map((i) => i.indexName).sort());
      for (const index of def.indexes) {
        const keySchema = [{ AttributeName: index.partitionKey.name, KeyType: 'HASH' }];
        if (index.sortKey) keySchema.push({ AttributeName: index.sortKey.name, KeyType: 'RANGE' });
        expect(indexes.find((i) => i.IndexName === index.indexName)).toEqual({
          IndexName: index.indexName,
          KeySchema: keySchema,
          Projection: { ProjectionType: 'ALL' },
        });
      }
    }
  });
});

describe('staff user pool', () => {
  it('admits admin-created staff only, by email, with a strong password and required TOTP', () => {
    dataT.hasResourceProperties('AWS::Cognito::UserPool', {
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      UsernameAttributes: ['email'],
      MfaConfiguration: 'ON',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      Policies: {
        PasswordPolicy: Match.objectLike({
          MinimumLength: 12,
          RequireLowercase: true,
          RequireUppercase: true,
          RequireNumbers: true,
          RequireSymbols: true,
        }),
      },
      AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'verified_email', Priority: 1 }] },
      DeletionProtection: 'ACTIVE',
    });
    for (const group of ['admin', 'viewer'])
      dataT.hasResourceProperties('AWS::Cognito::UserPoolGroup', { GroupName: group });
  });

  it('has a public SPA client with short-lived tokens', () => {
    dataT.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false,
      // SRP only, 15-minute tokens (test/infra/staff-auth.test.ts checks every stage).
      ExplicitAuthFlows: Match.arrayWith(['ALLOW_USER_SRP_AUTH']),
      AccessTokenValidity: 15,
      IdTokenValidity: 15,
      TokenValidityUnits: Match.objectLike({ AccessToken: 'minutes', IdToken: 'minutes' }),
    });
  });
});

describe('HTTP API', () => {
  it('has exactly one route per entry of lib/api-routes.ts and no catch-all', () => {
    const keys = ofType(appTemplate, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey);
    expect(keys.sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
    expect(keys).not.toContain('$default');
  });

  it('puts the JWT authorizer on every /api/admin/ route and on no public route', () => {
    const [authorizerId] = ofType(appTemplate, 'AWS::ApiGatewayV2::Authorizer')[0]!;
    expect(routes.some((r) => r.access === 'staff')).toBe(true);
    expect(routes.some((r) => r.access === 'public')).toBe(true);
    for (const [, route] of ofType(appTemplate, 'AWS::ApiGatewayV2::Route')) {
      const key = String(route.Properties.RouteKey);
      const definition = routes.find((r) => `${r.method} ${r.path}` === key)!;
      const isAdminPath = key.split(' ')[1]!.startsWith('/api/admin/');
      expect(definition.access === 'staff', key).toBe(isAdminPath);
      if (isAdminPath) {
        expect(route.Properties.AuthorizationType, key).toBe('JWT');
        expect(route.Properties.AuthorizerId, key).toEqual({ Ref: authorizerId });
      } else {
        expect(route.Properties.AuthorizationType, key).toBe('NONE');
        expect(route.Properties.AuthorizerId, key).toBeUndefined();
      }
    }
  });

  it('trusts tokens of the staff pool for the SPA client only', () => {
    const [, authorizer] = ofType(appTemplate, 'AWS::ApiGatewayV2::Authorizer')[0]!;
    const jwt = authorizer.Properties.JwtConfiguration as { Issuer: Json; Audience: unknown[] };
    expect(authorizer.Properties.AuthorizerType).toBe('JWT');
    const [poolId] = ofType(data, 'AWS::Cognito::UserPool')[0]!;
    expect(JSON.stringify(jwt.Issuer)).toContain(`https://cognito-idp.${config.region}.amazonaws.com/`);
    expect(importsIn(jwt.Issuer)).toEqual([poolId]);
    const [clientId] = ofType(data, 'AWS::Cognito::UserPoolClient')[0]!;
    expect(importsIn(jwt.Audience)).toEqual([clientId]);
  });

  it('throttles the stage from the stage configuration and writes access logs', () => {
    appT.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: {
        ThrottlingRateLimit: config.api.throttleRateLimit,
        ThrottlingBurstLimit: config.api.throttleBurstLimit,
      },
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') },
    });
  });
});

describe('functions', () => {
  it('builds one function per route plus the queue and stream consumers', () => {
    const handlers = new Set(routes.map((r) => r.handler));
    expect(projectFunctions()).toHaveLength(handlers.size + Object.keys(backgroundFunctions).length);
  });

  it('runs every project function on Node.js 22, arm64, as an ESM bundle with its own log group', () => {
    for (const [id, fn] of projectFunctions()) {
      expect(fn.Properties.Runtime, id).toBe('nodejs22.x');
      expect(fn.Properties.Architectures, id).toEqual(['arm64']);
      expect(fn.Properties.Handler, id).toBe('index.handler');
      expect(fn.Properties.MemorySize, id).toBe(512);
      expect(fn.Properties.LoggingConfig, id).toEqual({ LogGroup: { Ref: expect.any(String) as string } });
      const env = (fn.Properties.Environment as { Variables: Json }).Variables;
      expect(env, id).toMatchObject({ STAGE: 'prod', APP_MODE: 'aws', NODE_OPTIONS: '--enable-source-maps' });
    }
  });

  it("gives the code request one deadline below its function's timeout, with room for the answer", () => {
    const [, fn] = functionByHandler('otp-request');
    const env = (fn.Properties.Environment as { Variables: Json }).Variables;
    const deadlineMs = Number(env.REQUEST_DEADLINE_MS);
    const timeoutMs = (fn.Properties.Timeout as number) * 1000;
    expect(deadlineMs).toBeGreaterThan(0);
    // Captcha, the code's write and both sends end by the deadline; the answer needs the rest.
    expect(deadlineMs).toBeLessThanOrEqual(timeoutMs - ANSWER_MARGIN_MS);
  });

  it("tells the health function which of the stage's settings are placeholders (names only)", () => {
    const [, fn] = functionByHandler('health');
    const env = (fn.Properties.Environment as { Variables: Json }).Variables;
    // prod's settings today: the reCAPTCHA site key, the welcome video, the DLT ids, no alarm e-mail.
    expect(String(env.STAGE_PLACEHOLDERS).split(',')).toEqual(
      expect.arrayContaining(['alarmEmail', 'captcha.siteKey', 'whatsapp.welcomeVideoUrl', 'messaging.sms.entityId']),
    );
    expect(String(env.STAGE_PLACEHOLDERS)).not.toMatch(/PLACEHOLDER|youtube/);
  });

  it('gives each function exactly the tables of its definition, with the access it names', () => {
    const writeActions = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'];
    // A handler serving several routes (the webhook's GET and POST) gets what they all need.
    expect(handlerTableGrants(routes, 'whatsapp-webhook')).toEqual([{ table: 'deliveries', access: 'readwrite' }]);
    const definitions = [
      ...[...new Set(routes.map((r) => r.handler))].map((handler) => ({
        handler,
        grants: handlerTableGrants(routes, handler),
      })),
      ...Object.values(backgroundFunctions).map((f) => ({ handler: f.handler, grants: [...f.tables] })),
    ];
    for (const { handler, grants } of definitions) {
      const [id, fn] = functionByHandler(handler);
      const documents = policiesOfFunction(fn);
      const statements = documents.flatMap((d) => d.Statement as Json[]);
      // Table access, not the stream reading that the event source grants its consumer.
      const streamActions = [
        'dynamodb:DescribeStream',
        'dynamodb:GetRecords',
        'dynamodb:GetShardIterator',
        'dynamodb:ListStreams',
      ];
      const dynamoStatements = statements.filter((s) => {
        const actions = (Array.isArray(s.Action) ? s.Action : [s.Action]) as string[];
        return actions.some((a) => a.startsWith('dynamodb:') && !streamActions.includes(a));
      });
      const granted = new Set(dynamoStatements.flatMap((s) => importsIn(s.Resource)));
      expect([...granted].sort(), id).toEqual(grants.map((g) => tableLogicalId(tables[g.table].name)).sort());
      const env = (fn.Properties.Environment as { Variables: Json }).Variables;
      for (const grant of grants) {
        const tableId = tableLogicalId(tables[grant.table].name)!;
        expect(importsIn(env[tables[grant.table].envVar]), id).toEqual([tableId]);
        const onTable = dynamoStatements.filter((s) => importsIn(s.Resource).includes(tableId));
        const actions: string[] = onTable.flatMap((s) =>
          Array.isArray(s.Action) ? (s.Action as string[]) : [String(s.Action)],
        );
        expect(
          actions.some((a) => writeActions.includes(a)),
          `${id} writes ${grant.table}`,
        ).toBe(
          grant.access !== 'read' ||
            ('itemActions' in grant &&
              grant.itemActions?.some((a) => a === 'dynamodb:DeleteItem' || a === 'dynamodb:UpdateItem') === true),
        );
        expect(actions.includes('dynamodb:GetItem'), `${id} reads ${grant.table}`).toBe(grant.access !== 'write');
      }
    }
  });

  it('wires every function from exactly the environment its template gives it, and only the tables it is granted', async () => {
    // A deployed function's variables, with each reference (table, secret, queue) as a stand-in string.
    const standIn = (name: string, value: unknown) => (typeof value === 'string' ? value : `resolved-${name}`);
    const handlerNames = [
      ...new Set(routes.map((r) => r.handler)),
      ...Object.values(backgroundFunctions).map((f) => f.handler),
    ];
    for (const handler of handlerNames) {
      const [id, fn] = functionByHandler(handler);
      const variables = (fn.Properties.Environment as { Variables: Json }).Variables;
      const deployed = Object.fromEntries(Object.entries(variables).map(([k, v]) => [k, standIn(k, v)]));
      const module = (await import(`../../lambdas/handlers/${handler}.ts`)) as { handler: { wire: () => void } };
      const saved = process.env;
      process.env = { ...deployed, AWS_REGION: config.region, AWS_LAMBDA_FUNCTION_NAME: id };
      try {
        expect(() => module.handler.wire(), id).not.toThrow();
      } finally {
        process.env = saved;
      }
      // The grants are the whole of what it may name: no other table's variable is there to read.
      const tableVars: string[] = Object.values(tables).map((t) => t.envVar);
      const granted = Object.keys(deployed).filter((k) => tableVars.includes(k));
      const expected = (
        Object.values(backgroundFunctions).find((f) => f.handler === handler)?.tables ??
        handlerTableGrants(routes, handler)
      ).map((g) => tables[g.table].envVar);
      expect(granted.sort(), id).toEqual([...expected].sort());
    }
  });

  it('names table indexes one by one, never <table>/index/*', () => {
    expect(JSON.stringify(ofType(appTemplate, 'AWS::IAM::Policy'))).not.toContain('/index/*');
  });
});

describe('secrets', () => {
  it('puts no secret value in a template: generated or composed by dynamic reference only', () => {
    const secrets = ofType(data, 'AWS::SecretsManager::Secret');
    expect(secrets.length).toBeGreaterThanOrEqual(2);
    for (const [id, secret] of secrets) {
      const { SecretString: literal, GenerateSecretString: generated } = secret.Properties as {
        SecretString?: unknown;
        GenerateSecretString?: { SecretStringTemplate?: string; GenerateStringKey?: string };
      };
      if (generated) {
        expect(literal, id).toBeUndefined();
        const template = JSON.parse(generated.SecretStringTemplate ?? '{}') as Json;
        for (const value of Object.values(template)) expect(value, id).toBe('');
      } else {
        // Every value is a {{resolve:secretsmanager:...}} reference resolved by CloudFormation.
        const text = JSON.stringify(literal);
        const values = [...text.matchAll(/\\":\\"(.*?)\\"/g)].map((m) => m[1]);
        expect(values.length, id).toBeGreaterThan(0);
        for (const value of values) expect(value, id).toMatch(/^\{\{resolve:secretsmanager:/);
      }
    }
  });

  it('generates the member card key (issue 20) with an empty previous key, to be kept through a rotation', () => {
    const [id, secret] = ofType(data, 'AWS::SecretsManager::Secret').find(([sid]) =>
      sid.startsWith('SecretsCardKeySecret'),
    )!;
    expect(secret.Properties.GenerateSecretString, id).toMatchObject({
      SecretStringTemplate: JSON.stringify({ previous: '' }),
      GenerateStringKey: 'value',
      PasswordLength: 64,
    });
    expect(secret.DeletionPolicy, id).toBe(ofType(data, 'AWS::SecretsManager::Secret')[0]![1].DeletionPolicy);
  });

  it('creates the provider secret with the keys the operator fills', () => {
    const [, provider] = ofType(data, 'AWS::SecretsManager::Secret').find(([id]) => id.includes('ProviderSecret'))!;
    const generated = provider.Properties.GenerateSecretString as {
      SecretStringTemplate: string;
      GenerateStringKey: string;
    };
    const keys = [...Object.keys(JSON.parse(generated.SecretStringTemplate) as Json), generated.GenerateStringKey];
    expect(keys.sort()).toEqual([...providerSecretKeys].sort());
    // Exactly what the functions read: the webhook's app secret and verify token among them.
    expect([...providerSecretKeys].sort()).toEqual(Object.keys(providerSecretEntries).sort());
    expect(providerSecretKeys).toEqual(expect.arrayContaining(['whatsappAppSecret', 'whatsappVerifyToken']));
  });

  /** The Data stack's secret of each name. */
  const secretIdOf = (name: SecretName) => {
    const prefix = {
      provider: 'ProviderSecret',
      otpHashKey: 'OtpHashKeySecret',
      signingKey: 'SigningKeySecret',
      cardKey: 'CardKeySecret',
      origin: 'OriginSecret',
    }[name];
    return ofType(data, 'AWS::SecretsManager::Secret').find(([id]) => id.startsWith(`Secrets${prefix}`))![0];
  };
  /** The secrets a function may read, from its policies, by name. */
  const secretsReadBy = (fn: Resource & { Properties: Json }) => {
    const ids = policiesOfFunction(fn)
      .flatMap((d) => d.Statement as Json[])
      .filter((st) => JSON.stringify(st.Action).includes('secretsmanager:GetSecretValue'))
      .map((st) => importsIn(st.Resource));
    const names = (['provider', 'otpHashKey', 'signingKey', 'cardKey', 'origin'] as const).filter((name) =>
      ids.some((statement) => statement.length === 1 && statement[0] === secretIdOf(name)),
    );
    // One statement per secret: no grant covers two.
    expect(ids.every((statement) => statement.length === 1)).toBe(true);
    expect(names).toHaveLength(ids.length);
    return names;
  };

  it('grants each function exactly the secrets it reads, one statement per secret; every API function reads the origin secret', () => {
    for (const handler of new Set(routes.map((r) => r.handler))) {
      const [id, fn] = functionByHandler(handler);
      const expected = [...(handlerNeeds(routes, handler).secrets ?? []), 'origin'];
      expect(secretsReadBy(fn).sort(), id).toEqual([...expected].sort());
      const env = (fn.Properties.Environment as { Variables: Json }).Variables;
      for (const name of expected)
        expect(importsIn(env[secretEnvVars[name as SecretName]]), `${id} ${name}`).toEqual([
          secretIdOf(name as SecretName),
        ]);
    }
    // The pairs the issue names: the outbound consumer never reads the signing key, otp-verify never the WhatsApp token.
    expect(secretsReadBy(functionByHandler('outbound-consumer')[1]).sort()).toEqual([
      'cardKey',
      'otpHashKey',
      'provider',
    ]);
    expect(secretsReadBy(functionByHandler('otp-verify')[1]).sort()).toEqual(['origin', 'otpHashKey', 'signingKey']);
    expect(secretsReadBy(functionByHandler('applications-list')[1])).toEqual(['origin']);
  });

  it('lets the public functions read only the items they need from the applications table', () => {
    const applicationsId = tableLogicalId('applications')!;
    const statementsOn = (handler: string) =>
      policiesOfFunction(functionByHandler(handler)[1])
        .flatMap((d) => d.Statement as Json[])
        .filter((st) => importsIn(st.Resource).includes(applicationsId));
    for (const [handler, items] of [
      ['health', ['HEALTH']],
      ['otp-verify', ['PHONE#*']],
      // The member card's routes (issue 20): a serial's guard and its application, or a number's.
      ['card-view', ['CARD#*', 'APP#*']],
      ['card-status', ['CARD#*', 'APP#*']],
      ['card-mine', ['PHONE#*', 'APP#*']],
    ] as const) {
      const statements = statementsOn(handler);
      expect(statements, handler).toHaveLength(1);
      expect(statements[0]!.Action, handler).toBe('dynamodb:GetItem');
      expect(statements[0]!.Condition, handler).toEqual({
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': items },
      });
    }
    // "My application" (issue 21) reads a number's guard and its application; the withdrawal
    // deletes them and the card's guard, and writes nothing else there.
    expect(statementsOn('my-application').map((s) => [s.Action, s.Condition])).toEqual([
      ['dynamodb:GetItem', { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['PHONE#*', 'APP#*'] } }],
    ]);
    expect(statementsOn('my-withdraw').map((s) => [s.Action, s.Condition])).toEqual([
      [
        ['dynamodb:GetItem', 'dynamodb:DeleteItem'],
        { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['PHONE#*', 'APP#*', 'CARD#*'] } },
      ],
    ]);
    // The correction (issue 21) updates an application read through its number's guard.
    expect(statementsOn('my-correct').map((s) => [s.Action, s.Condition])).toEqual([
      [
        ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
        { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['PHONE#*', 'APP#*'] } },
      ],
    ]);
    // The code request does not look at applications at all (nobody learns from it who applied).
    expect(statementsOn('otp-request')).toEqual([]);
    // Grievances (issue 21): after the code, the number's guard and its application are read;
    // with a contact number (no code), nothing of the applications table, as for the code request.
    expect(statementsOn('grievance-mine').map((s) => [s.Action, s.Condition])).toEqual([
      ['dynamodb:GetItem', { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['PHONE#*', 'APP#*'] } }],
    ]);
    expect(statementsOn('grievance-contact')).toEqual([]);
    expect(statementsOn('grievance-answer-view')).toEqual([]);
    // The card's public keys read no table at all.
    expect(statementsOn('card-keys')).toEqual([]);
  });

  it('lets the withdrawal put only its confirmation’s item in the deliveries table, and the outbound consumer read and delete it', () => {
    const deliveriesId = tableLogicalId('deliveries')!;
    const statementsOn = (handler: string) =>
      policiesOfFunction(functionByHandler(handler)[1])
        .flatMap((d) => d.Statement as Json[])
        .filter((st) => importsIn(st.Resource).includes(deliveriesId));
    // Issue 21: the number and language for the confirmation, PutItem of `WITHDRAWN#*` only.
    expect(statementsOn('my-withdraw').map((s) => [s.Action, s.Condition])).toEqual([
      ['dynamodb:PutItem', { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['WITHDRAWN#*'] } }],
    ]);
    expect(statementsOn('outbound-consumer').flatMap((s) => [s.Action].flat())).toEqual(
      expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:DeleteItem']),
    );
    // The withdrawal queues the message's id: it knows the queue and whether the stage sends them.
    const env = (functionByHandler('my-withdraw')[1].Properties.Environment as { Variables: Json }).Variables;
    expect(env.WITHDRAWAL_CONFIRMATIONS_ENABLED).toBe(String(config.messaging.withdrawalConfirmations.enabled));
    expect(env.OUTBOUND_QUEUE_URL).toBeDefined();
  });

  it('keeps the webhook credentials out of every environment: the webhook function gets the provider secret ARN only', () => {
    for (const [id, fn] of ofType(appTemplate, 'AWS::Lambda::Function')) {
      const text = JSON.stringify(fn.Properties.Environment ?? {});
      expect(text, id).not.toMatch(/whatsappAppSecret|whatsappVerifyToken|APP_SECRET|VERIFY_TOKEN/i);
    }
    const [id, webhook] = functionByHandler('whatsapp-webhook');
    const env = (webhook.Properties.Environment as { Variables: Json }).Variables;
    const providerId = ofType(data, 'AWS::SecretsManager::Secret').find(([sid]) => sid.includes('ProviderSecret'))![0];
    expect(importsIn(env[secretEnvVars.provider]), id).toEqual([providerId]);
    expect(env[secretEnvVars.otpHashKey], id).toBeUndefined();
    expect(env[secretEnvVars.signingKey], id).toBeUndefined();
    // ...and may read that secret alone, besides the origin token every API function checks.
    const reads = policiesOfFunction(webhook)
      .flatMap((d) => d.Statement as Json[])
      .filter((st) => JSON.stringify(st.Action).includes('secretsmanager:GetSecretValue'));
    expect(reads.flatMap((st) => importsIn(st.Resource)).sort()).toEqual([providerId, secretIdOf('origin')].sort());
  });

  it('gives functions secret ARNs only, never a literal in a variable named like a secret', () => {
    const secretIds = ofType(data, 'AWS::SecretsManager::Secret').map(([id]) => id);
    let secretVariables = 0;
    for (const [id, fn] of ofType(appTemplate, 'AWS::Lambda::Function')) {
      const env: Json = (fn.Properties.Environment as { Variables?: Json } | undefined)?.Variables ?? {};
      for (const [name, value] of Object.entries(env)) {
        if (!/TOKEN|SECRET|PASSWORD|KEY/i.test(name)) continue;
        expect(typeof value, `${id} ${name}`).not.toBe('string');
        if (Object.values(secretEnvVars).includes(name as never)) {
          secretVariables += 1;
          const [target] = importsIn(value);
          expect(secretIds, `${id} ${name}`).toContain(target);
        }
      }
    }
    expect(secretVariables).toBeGreaterThan(0);
  });

  it('lets no value from the deploying shell reach a template', () => {
    for (const value of Object.values(sampleSecrets)) expect(assemblyText).not.toContain(value);
  });
});

describe('outbound messaging and the applications stream', () => {
  const deadLetterArns = () => {
    const redriveTargets = ofType(appTemplate, 'AWS::SQS::Queue').flatMap(([, q]) =>
      q.Properties.RedrivePolicy ? [JSON.stringify((q.Properties.RedrivePolicy as Json).deadLetterTargetArn)] : [],
    );
    const onFailure = ofType(appTemplate, 'AWS::Lambda::EventSourceMapping').flatMap(([, m]) => {
      const destination = (m.Properties.DestinationConfig as { OnFailure?: { Destination: unknown } } | undefined)
        ?.OnFailure?.Destination;
      return destination ? [JSON.stringify(destination)] : [];
    });
    return new Set([...redriveTargets, ...onFailure]);
  };
  const asyncFailureArns = () =>
    ofType(appTemplate, 'AWS::Lambda::EventInvokeConfig').flatMap(([, c]) => {
      const destination = (c.Properties.DestinationConfig as { OnFailure?: { Destination: unknown } } | undefined)
        ?.OnFailure?.Destination;
      return destination ? [JSON.stringify(destination)] : [];
    });
  const isDeadLetterQueue = (id: string) => {
    const arn = JSON.stringify({ 'Fn::GetAtt': [id, 'Arn'] });
    return deadLetterArns().has(arn) || asyncFailureArns().includes(arn);
  };

  it('gives every queue that is not itself a dead-letter queue a redrive policy', () => {
    const queues = ofType(appTemplate, 'AWS::SQS::Queue');
    const working = queues.filter(([id]) => !isDeadLetterQueue(id));
    expect(working.length).toBeGreaterThan(0);
    for (const [id, queue] of working) {
      expect(queue.Properties.RedrivePolicy, id).toMatchObject({ maxReceiveCount: config.outbound.maxReceiveCount });
    }
    for (const [id, queue] of queues) expect(queue.Properties.SqsManagedSseEnabled, id).toBe(true);
  });

  it('alarms on the first message in every dead-letter queue, to the alarm topic', () => {
    const [topicId] = ofType(appTemplate, 'AWS::SNS::Topic').find(([id]) => id.startsWith('AlarmsTopic'))!;
    const deadLetterQueues = ofType(appTemplate, 'AWS::SQS::Queue').filter(([id]) => isDeadLetterQueue(id));
    // Outbound, the stream's on-failure queue, the SMS events' on-failure queue.
    expect(deadLetterQueues.length).toBe(3);
    for (const [queueId] of deadLetterQueues) {
      appT.hasResourceProperties('AWS::CloudWatch::Alarm', {
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Namespace: 'AWS/SQS',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } }],
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        AlarmActions: [{ Ref: topicId }],
      });
    }
  });

  it('lets the outbound queue hide a message six consumer timeouts long, and reports partial failures', () => {
    const [consumerId, consumer] = functionByHandler(backgroundFunctions.outboundConsumer.handler);
    const [queueId, queue] = ofType(appTemplate, 'AWS::SQS::Queue').find(([, q]) => q.Properties.RedrivePolicy)!;
    expect(Number(queue.Properties.VisibilityTimeout)).toBeGreaterThanOrEqual(6 * Number(consumer.Properties.Timeout));
    appT.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: consumerId },
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: config.outbound.maxConcurrency },
    });
  });

  it('feeds the applications stream to its consumer with bisection and an on-failure queue', () => {
    const [consumerId] = functionByHandler(backgroundFunctions.applicationsStream.handler);
    const [, mapping] = ofType(appTemplate, 'AWS::Lambda::EventSourceMapping').find(
      ([, m]) => JSON.stringify(m.Properties.FunctionName) === JSON.stringify({ Ref: consumerId }),
    )!;
    expect(importsIn(mapping.Properties.EventSourceArn)).toEqual([tableLogicalId('applications')]);
    expect(mapping.Properties).toMatchObject({
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: 100,
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRetryAttempts: expect.any(Number) as number,
      DestinationConfig: { OnFailure: { Destination: expect.anything() as unknown } },
    });
  });
});

describe('daily jobs', () => {
  it.each([backgroundFunctions.rollupsAgeing.handler, backgroundFunctions.retention.handler])(
    'runs %s daily at 00:00 IST, retried, and alarms when it fails',
    (handler) => {
      const [jobId] = functionByHandler(handler);
      const rules = ofType(appTemplate, 'AWS::Events::Rule').filter(([, r]) =>
        JSON.stringify(r.Properties.Targets).includes(jobId),
      );
      expect(rules).toHaveLength(1);
      expect(rules[0]![1].Properties).toMatchObject({
        ScheduleExpression: 'cron(30 18 * * ? *)',
        State: 'ENABLED',
        Targets: [
          expect.objectContaining({
            Arn: { 'Fn::GetAtt': [jobId, 'Arn'] },
            RetryPolicy: expect.objectContaining({ MaximumRetryAttempts: 2 }) as unknown,
          }),
        ],
      });
      appT.hasResourceProperties('AWS::Lambda::Permission', {
        FunctionName: { 'Fn::GetAtt': [jobId, 'Arn'] },
        Principal: 'events.amazonaws.com',
      });
      const [topicId] = ofType(appTemplate, 'AWS::SNS::Topic').find(([id]) => id.startsWith('AlarmsTopic'))!;
      appT.hasResourceProperties('AWS::CloudWatch::Alarm', {
        MetricName: 'Errors',
        Namespace: 'AWS/Lambda',
        Dimensions: [{ Name: 'FunctionName', Value: { Ref: jobId } }],
        AlarmActions: [{ Ref: topicId }],
      });
    },
  );

  it("gives the retention job the stage's period", () => {
    const [, job] = functionByHandler(backgroundFunctions.retention.handler);
    expect((job.Properties.Environment as { Variables: Json }).Variables.RETENTION_REJECTED_DAYS).toBe('365');
  });
});

describe('report rollups', () => {
  it('gives the ageing job time to wait out its fence, which outlasts a stream consumer invocation', () => {
    const [, job] = functionByHandler(backgroundFunctions.rollupsAgeing.handler);
    const [, consumer] = functionByHandler(backgroundFunctions.applicationsStream.handler);
    expect(rollupsFenceSeconds).toBeGreaterThan(Number(consumer.Properties.Timeout));
    expect(Number(job.Properties.Timeout)).toBeGreaterThanOrEqual(rollupsFenceSeconds + 120);
  });

  it('indexes the rollups by birthday for the ageing job, and lets the report routes read only the rollups they need', () => {
    // The birthday index for the ageing job; the referral boards' rank index (issue 19).
    expect(tables.rollups.indexes.map((i) => i.indexName)).toEqual(['by-birthday', 'by-rank']);
    for (const path of ['/api/admin/stats', '/api/admin/reports/summary', '/api/admin/reports/rows']) {
      const route = routes.find((r) => r.path === path)!;
      expect(route.access, path).toBe('staff');
      // Read-only on the data; the report rows also count a reader's pages (rateLimits) and
      // record a large read (audit), issue 14 item 4.
      const data = route.tables.filter((t) => t.table !== 'rateLimits' && t.table !== 'audit');
      expect(
        data.every((t) => t.access === 'read'),
        path,
      ).toBe(true);
    }
  });
});

describe('web hosting', () => {
  it('serves a private bucket through CloudFront with origin access control', () => {
    const [, distribution] = ofType(appTemplate, 'AWS::CloudFront::Distribution')[0]!;
    const origins = (distribution.Properties.DistributionConfig as { Origins: Json[] }).Origins;
    const s3Origin = origins.find((o) => o.OriginAccessControlId)!;
    const siteBucketId = ((s3Origin.DomainName as Json)['Fn::GetAtt'] as string[])[0]!;
    const [, site] = ofType(appTemplate, 'AWS::S3::Bucket').find(([id]) => id === siteBucketId)!;
    expect(site.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(s3Origin.S3OriginConfig).toEqual({ OriginAccessIdentity: '' });
    appT.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always' }),
    });
    appT.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: siteBucketId },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 'cloudfront.amazonaws.com' },
            Action: 's3:GetObject',
            Condition: { StringEquals: { 'AWS:SourceArn': Match.anyValue() } },
          }),
        ]),
      },
    });
  });

  it('routes /api/* uncached to the HTTP API and everything else to the SPA', () => {
    const [apiId] = ofType(appTemplate, 'AWS::ApiGatewayV2::Api')[0]!;
    const [, distribution] = ofType(appTemplate, 'AWS::CloudFront::Distribution')[0]!;
    const config_ = distribution.Properties.DistributionConfig as Json;
    expect(config_.DefaultRootObject).toBe('index.html');
    expect(config_.CustomErrorResponses).toBeUndefined();
    const api = (config_.CacheBehaviors as Json[]).find((b) => b.PathPattern === '/api/*')!;
    expect(api).toMatchObject({
      AllowedMethods: expect.arrayContaining(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']) as string[],
    });
    // Uncached: nothing is kept unless the API says so, and then a second at most, per token.
    const cachePolicy = appTemplate.Resources[(api.CachePolicyId as { Ref: string }).Ref]!;
    expect(cachePolicy.Properties!.CachePolicyConfig).toMatchObject({
      DefaultTTL: 0,
      MinTTL: 0,
      MaxTTL: 1,
      ParametersInCacheKeyAndForwardedToOrigin: {
        HeadersConfig: { HeaderBehavior: 'whitelist', Headers: ['Authorization'] },
        QueryStringsConfig: { QueryStringBehavior: 'all' },
        CookiesConfig: { CookieBehavior: 'none' },
      },
    });
    const origin = (config_.Origins as Json[]).find((o) => o.Id === api.TargetOriginId)!;
    expect(JSON.stringify(origin.DomainName)).toContain(apiId);
    expect(JSON.stringify(origin.DomainName)).toContain('.execute-api.');
    const spa = config_.DefaultCacheBehavior as { FunctionAssociations: Json[] };
    expect(spa.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: expect.anything() as unknown },
    ]);
  });

  it('rewrites SPA routes to /index.html but leaves files and the API alone', () => {
    // Run the function's code in a fresh context, as CloudFront does.
    const handler = runInNewContext(`${spaRewriteCode}; handler`, {}) as (e: { request: { uri: string } }) => {
      uri: string;
    };
    const rewrite = (uri: string) => handler({ request: { uri } }).uri;
    expect(rewrite('/')).toBe('/index.html');
    expect(rewrite('/admin/reports')).toBe('/index.html');
    expect(rewrite('/apply')).toBe('/index.html');
    expect(rewrite('/assets/index-abc123.js')).toBe('/assets/index-abc123.js');
    expect(rewrite('/config.json')).toBe('/config.json');
    expect(rewrite('/api/health')).toBe('/api/health');
  });

  it('sends the security headers on every behavior', () => {
    const [policyId, policy] = ofType(appTemplate, 'AWS::CloudFront::ResponseHeadersPolicy')[0]!;
    const headers = (policy.Properties.ResponseHeadersPolicyConfig as { SecurityHeadersConfig: Json })
      .SecurityHeadersConfig as Record<string, Json>;
    const csp = String(headers.ContentSecurityPolicy!.ContentSecurityPolicy);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("script-src 'self' https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/");
    expect(csp).toContain(`connect-src 'self' https://cognito-idp.${config.region}.amazonaws.com`);
    expect(headers.StrictTransportSecurity).toMatchObject({
      AccessControlMaxAgeSec: 63072000,
      IncludeSubdomains: true,
      Preload: true,
    });
    expect(headers.ContentTypeOptions).toMatchObject({ Override: true });
    expect(headers.FrameOptions).toMatchObject({ FrameOption: 'DENY' });
    expect(headers.ReferrerPolicy).toMatchObject({ ReferrerPolicy: 'strict-origin-when-cross-origin' });
    const [, distribution] = ofType(appTemplate, 'AWS::CloudFront::Distribution')[0]!;
    const config_ = distribution.Properties.DistributionConfig as {
      DefaultCacheBehavior: Json;
      CacheBehaviors: Json[];
    };
    for (const behavior of [config_.DefaultCacheBehavior, ...config_.CacheBehaviors]) {
      expect(behavior.ResponseHeadersPolicyId).toEqual({ Ref: policyId });
    }
  });

  it('deploys config.json for this stage, uncached, and invalidates the entry points', () => {
    appT.hasResourceProperties('Custom::CDKBucketDeployment', {
      Include: Match.arrayWith(['index.html', 'config.json']),
      SystemMetadata: { 'cache-control': 'no-cache' },
      DistributionPaths: Match.arrayWith(['/index.html', '/config.json']),
    });
    const [, deployment] = ofType(appTemplate, 'Custom::CDKBucketDeployment').find(([, d]) =>
      (d.Properties.Include as string[] | undefined)?.includes('config.json'),
    )!;
    const keys = deployment.Properties.SourceObjectKeys as string[];
    const configAsset = keys
      .map((key) => path.join(workDir, 'cdk.out', `asset.${key.replace(/\.zip$/, '')}`, 'config.json'))
      .find((file) => existsSync(file))!;
    const written = JSON.parse(readFileSync(configAsset, 'utf8')) as unknown;
    const parsed = parseRuntimeConfig(written);
    expect(parsed).toMatchObject({
      stage: 'prod',
      apiBasePath: '/api',
      defaultLanguage: config.defaultLanguage,
      captcha: {
        siteKey: config.captcha.siteKey,
        scriptUrl: `https://www.google.com/recaptcha/api.js?render=${config.captcha.siteKey}`,
      },
      cognito: { region: config.region },
      // What the notice names (issue 21): the stage's data contact and rejected-application retention.
      dataNotice: {
        contact: config.dataContact,
        rejectedApplicationDays: config.retention.rejectedApplicationDays,
      },
    });
    // Pool and client ids are deploy-time values, filled in by the deployment from markers.
    const markers = JSON.stringify(deployment.Properties.SourceMarkers);
    expect(parsed.cognito.userPoolId).toMatch(/^<<marker:/);
    expect(parsed.cognito.userPoolClientId).toMatch(/^<<marker:/);
    expect(markers).toContain(parsed.cognito.userPoolId);
    expect(markers).toContain(parsed.cognito.userPoolClientId);
  });
});

/** Errors (not warnings) that no acknowledgement covers, from every validation plugin. */
function unacknowledgedErrors(validation: ValidationReport) {
  return validation.pluginReports.flatMap((plugin) =>
    plugin.violations
      .filter((v) => v.severity === 'error' || v.severity === 'fatal')
      .map((v) => ({
        plugin: plugin.pluginName,
        rule: v.ruleName,
        description: v.description,
        at: v.violatingConstructs?.map((c) => c.constructPath),
      })),
  );
}

describe('cdk-nag (AwsSolutions)', () => {
  it('reports no unacknowledged error', () => {
    const errors = unacknowledgedErrors(report);
    if (errors.length > 0) console.error(`Unacknowledged cdk-nag errors:\n${JSON.stringify(errors, null, 2)}`);
    expect(errors).toEqual([]);
  });

  it('would report one (control: a bare queue breaks AwsSolutions-SQS4)', () => {
    const outdir = path.join(workDir, 'control.out');
    const app = new App({ outdir, context: { '@aws-cdk/core:failSynthOnValidationErrors': false } });
    new sqs.Queue(new Stack(app, 'Control'), 'BareQueue');
    addNagChecks(app);
    app.synth();
    const control = JSON.parse(readFileSync(path.join(outdir, 'validation-report.json'), 'utf8')) as ValidationReport;
    expect(unacknowledgedErrors(control).map((e) => e.rule)).toContain('AwsSolutions-SQS4');
  });
});
