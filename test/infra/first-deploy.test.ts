import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EdgeFirewall, webAclLogicalId } from '../../lib/constructs/edge-firewall';
import { EDGE_REGION, addMembershipStacks, stackNames } from '../../lib/constructs/membership-stacks';
import { StatefulStack } from '../../lib/stateful-stack';
import { type StageConfig, loadStageConfig } from '../../lib/stages';
import { allTables } from '../../contracts/table-definitions';

// Issue 15, the template side of a first deploy: alarms that can reach the topic, data kept
// on update or delete but not after a failed create, a web ACL whose identity cannot change
// under its cross-region reference, and Data exports that do not follow their consumer.
// One synthesis of dev and prod (bundling skipped), plus small Data-only ones.

type Json = Record<string, unknown>;
interface Resource {
  readonly Type: string;
  readonly Properties: Json;
  readonly DeletionPolicy?: string;
  readonly UpdateReplacePolicy?: string;
}
interface TemplateJson {
  readonly Resources: Record<string, Resource>;
  readonly Outputs?: Record<string, { Value: unknown; Export?: { Name: string } }>;
}

let workDir: string;
const templates = new Map<string, TemplateJson>();
// dev without an alarm destination: the synth must not need one (the preflight reports it).
const devConfig: StageConfig = { ...loadStageConfig('dev') };
delete devConfig.alarmEmail;
const config = { dev: devConfig, prod: loadStageConfig('prod') } as const;
type Stage = keyof typeof config;

/** What the pseudo parameters stand for when a template value is read as a string. */
const account = process.env.CDK_DEFAULT_ACCOUNT ?? '111122223333';
const env = (stage: Stage) => ({ account: process.env.CDK_DEFAULT_ACCOUNT, region: config[stage].region });

beforeAll(() => {
  workDir = mkdtempSync(path.join(tmpdir(), 'membership-first-deploy-'));
  const web = path.join(workDir, 'web');
  mkdirSync(web, { recursive: true });
  writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>test</title>');
  const app = new App({ outdir: path.join(workDir, 'cdk.out'), context: { 'aws:cdk:bundling-stacks': [] } });
  for (const stage of ['dev', 'prod'] as const) addMembershipStacks(app, config[stage], web);
  for (const stack of app.synth().stacks) templates.set(stack.stackName, stack.template as TemplateJson);
});

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

const template = (stage: Stage, part: 'data' | 'app' | 'edge') => {
  const found = templates.get(stackNames({ stage })[part]);
  if (!found) throw new Error(`no ${part} stack in ${stage}`);
  return found;
};
const ofType = (t: TemplateJson, type: string) => Object.entries(t.Resources).filter(([, r]) => r.Type === type);
const single = (t: TemplateJson, type: string) => {
  const found = ofType(t, type);
  expect(found, type).toHaveLength(1);
  return found[0]!;
};
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

/** A template value as a string, pseudo parameters filled in; undefined when it is anything else. */
function text(value: unknown, region: string): string | undefined {
  if (typeof value === 'string') return value;
  const v = value as Json | undefined;
  const pseudo: Record<string, string> = { 'AWS::AccountId': account, 'AWS::Partition': 'aws', 'AWS::Region': region };
  if (typeof v?.Ref === 'string') return pseudo[v.Ref];
  const join = v?.['Fn::Join'] as [string, unknown[]] | undefined;
  if (!join) return undefined;
  const parts = join[1].map((part) => text(part, region));
  return parts.every((part) => part !== undefined) ? parts.join(join[0]) : undefined;
}

/** IAM's ArnLike: `*` any run of characters, `?` one. */
const arnLike = (pattern: string, arn: string) =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  ).test(arn);

describe('the alarm topic', () => {
  const alarmTopic = (stage: Stage) => {
    const found = ofType(template(stage, 'app'), 'AWS::SNS::Topic').filter(
      ([, r]) => r.Properties.DisplayName === `Membership ${stage} alarms`,
    );
    expect(found).toHaveLength(1);
    return found[0]![0];
  };
  const statements = (stage: Stage) => {
    const topicId = alarmTopic(stage);
    const policies = ofType(template(stage, 'app'), 'AWS::SNS::TopicPolicy').filter(([, p]) =>
      (p.Properties.Topics as Json[]).some((t) => t.Ref === topicId),
    );
    // One policy: a second would not add to the first, each topic has one policy.
    expect(policies).toHaveLength(1);
    return (policies[0]![1].Properties.PolicyDocument as { Statement: Json[] }).Statement;
  };

  for (const stage of ['prod', 'dev'] as const) {
    it(`lets CloudWatch publish to it, only for ${stage}'s alarms of this account (${stage})`, () => {
      const topicId = alarmTopic(stage);
      const region = config[stage].region;
      const allows = statements(stage).filter((s) => s.Effect === 'Allow');
      expect(allows).toHaveLength(1);
      const allow = allows[0]!;
      expect(allow.Principal).toEqual({ Service: 'cloudwatch.amazonaws.com' });
      expect(asArray(allow.Action)).toEqual(['sns:Publish']);
      expect(asArray(allow.Resource)).toEqual([{ Ref: topicId }]);
      const condition = allow.Condition as { StringEquals?: Json; ArnLike?: Json };
      expect(Object.keys(condition).sort()).toEqual(['ArnLike', 'StringEquals']);
      expect(text(condition.StringEquals?.['aws:SourceAccount'], region)).toBe(account);
      const pattern = text(condition.ArnLike?.['aws:SourceArn'], region);
      expect(pattern).toBe(`arn:aws:cloudwatch:${region}:${account}:alarm:membership-${stage}-*`);
      // Another stage's alarm, or another account's, does not match.
      const other = stage === 'prod' ? 'dev' : 'prod';
      expect(arnLike(pattern!, `arn:aws:cloudwatch:${region}:${account}:alarm:membership-${other}-api-errors`)).toBe(
        false,
      );
      expect(arnLike(pattern!, `arn:aws:cloudwatch:${region}:999999999999:alarm:membership-${stage}-x`)).toBe(false);
    });

    it(`covers every alarm that notifies the topic (${stage})`, () => {
      const topicId = alarmTopic(stage);
      const region = config[stage].region;
      const allow = statements(stage).find((s) => s.Effect === 'Allow')!;
      const pattern = text((allow.Condition as { ArnLike: Json }).ArnLike['aws:SourceArn'], region)!;
      const alarms = ofType(template(stage, 'app'), 'AWS::CloudWatch::Alarm');
      expect(alarms.length).toBeGreaterThan(5);
      for (const [id, alarm] of alarms) {
        expect(alarm.Properties.AlarmActions, id).toEqual([{ Ref: topicId }]);
        const arn = `arn:aws:cloudwatch:${region}:${account}:alarm:${String(alarm.Properties.AlarmName)}`;
        expect(arnLike(pattern, arn), arn).toBe(true);
      }
    });

    it(`still refuses publishing without TLS (${stage})`, () => {
      const denies = statements(stage).filter((s) => s.Effect === 'Deny');
      expect(denies).toHaveLength(1);
      expect(denies[0]).toMatchObject({
        Principal: '*',
        Action: 'sns:Publish',
        Resource: { Ref: alarmTopic(stage) },
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      });
    });

    it(`names the topic in an output for the preflight (${stage})`, () => {
      expect(template(stage, 'app').Outputs?.AlarmTopicArn?.Value).toEqual({ Ref: alarmTopic(stage) });
    });
  }

  it('synthesizes a stage without an alarm destination, with no subscription', () => {
    expect(config.dev.alarmEmail).toBeUndefined();
    expect(statements('dev').length).toBeGreaterThan(0);
    const topicId = alarmTopic('dev');
    const subscriptions = ofType(template('dev', 'app'), 'AWS::SNS::Subscription').filter(
      ([, s]) => (s.Properties.TopicArn as Json | undefined)?.Ref === topicId,
    );
    expect(subscriptions).toEqual([]);
  });
});

describe('stateful resources', () => {
  /** What holds data that code cannot rebuild, and how many of each a stage has at least. */
  const statefulTypes: Record<string, number> = {
    'AWS::DynamoDB::Table': allTables.length,
    'AWS::Cognito::UserPool': 1,
    // Deleting a group deletes its memberships.
    'AWS::Cognito::UserPoolGroup': 2,
    'AWS::SecretsManager::Secret': 4,
    // The access logs (and the site bucket, kept rather than auto-emptied).
    'AWS::S3::Bucket': 2,
    'AWS::Logs::LogGroup': 10,
  };
  const stateful = (stage: Stage) =>
    (['data', 'app'] as const).flatMap((part) =>
      Object.entries(template(stage, part).Resources).filter(([, r]) => r.Type in statefulTypes),
    );

  it('finds every kind of them in both stages', () => {
    for (const stage of ['prod', 'dev'] as const) {
      for (const [type, least] of Object.entries(statefulTypes)) {
        expect(stateful(stage).filter(([, r]) => r.Type === type).length, `${stage} ${type}`).toBeGreaterThanOrEqual(
          least,
        );
      }
    }
  });

  it('keeps each on update or delete in prod, but not after a failed first create', () => {
    expect(config.prod.retainData).toBe(true);
    for (const [id, resource] of stateful('prod')) {
      expect(resource.DeletionPolicy, `${resource.Type} ${id}`).toBe('RetainExceptOnCreate');
      expect(resource.UpdateReplacePolicy, `${resource.Type} ${id}`).toBe('Retain');
    }
  });

  it('deletes each in dev, which keeps no data', () => {
    expect(config.dev.retainData).toBe(false);
    for (const [id, resource] of stateful('dev')) {
      expect(resource.DeletionPolicy, `${resource.Type} ${id}`).toBe('Delete');
      expect(resource.UpdateReplacePolicy, `${resource.Type} ${id}`).toBe('Delete');
    }
  });
});

describe("the web ACL's identity", () => {
  it('has a fixed name and logical id in the Edge stack', () => {
    const [id, acl] = single(template('prod', 'edge'), 'AWS::WAFv2::WebACL');
    expect(id).toBe(webAclLogicalId);
    expect(acl.Properties).toMatchObject({ Name: 'membership-prod-edge', Scope: 'CLOUDFRONT' });
  });

  it('keeps its logical id wherever the construct sits', () => {
    const app = new App();
    const stack = new Stack(app, 'Elsewhere', { env: { region: EDGE_REGION } });
    new EdgeFirewall(stack, 'SomeOtherPath', { config: config.prod });
    const elsewhere = app.synth().getStackByName('Elsewhere').template as TemplateJson;
    const ids = Object.keys(elsewhere.Resources);
    expect(ids).toEqual([webAclLogicalId]);
  });

  it('is what the cross-region writer hands to the App stack, under a name made of that id', () => {
    const [, writer] = single(template('prod', 'edge'), 'Custom::CrossRegionExportWriter');
    const exports = (writer.Properties.WriterProps as { exports: Record<string, unknown> }).exports;
    const names = Object.keys(exports);
    expect(names).toHaveLength(1);
    expect(exports[names[0]!]).toEqual({ 'Fn::GetAtt': [webAclLogicalId, 'Arn'] });
    // The parameter's name holds the (fixed) logical id, so it stays as long as the id does.
    expect(names[0]).toMatch(new RegExp(`^/cdk/exports/Membership-prod-App/.*${webAclLogicalId}Arn`));
    expect(JSON.stringify(template('prod', 'app').Resources)).toContain(names[0]);
  });
});

describe("the Data stack's exports", () => {
  /** The export names of a Data stack synthesized on its own, maybe beside an unrelated table. */
  function exportsAlone(stage: Stage, unrelated = false): string[] {
    const app = new App();
    const names = stackNames(config[stage]);
    const data = new StatefulStack(app, names.data, { stackName: names.data, env: env(stage), config: config[stage] });
    if (unrelated) {
      new dynamodb.Table(data, 'Unrelated', { partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING } });
    }
    const outputs = (app.synth().getStackByName(names.data).template as TemplateJson).Outputs ?? {};
    return Object.values(outputs)
      .flatMap((o) => (o.Export ? [o.Export.Name] : []))
      .sort();
  }
  const alone = { dev: [] as string[], prod: [] as string[] };
  beforeAll(() => {
    alone.dev = exportsAlone('dev');
    alone.prod = exportsAlone('prod');
  });

  /** Every Fn::ImportValue name inside a value. */
  function importsIn(value: unknown): string[] {
    if (Array.isArray(value)) return value.flatMap(importsIn);
    if (value && typeof value === 'object') {
      const name = (value as Json)['Fn::ImportValue'];
      if (typeof name === 'string') return [name];
      if (name !== undefined) throw new Error(`an import by a computed name: ${JSON.stringify(name)}`);
      return Object.values(value).flatMap(importsIn);
    }
    return [];
  }

  for (const stage of ['prod', 'dev'] as const) {
    it(`declares, without any consumer, every export the App stack imports (${stage})`, () => {
      const imports = [...new Set(importsIn(template(stage, 'app')))];
      expect(imports.length).toBeGreaterThan(10);
      for (const name of imports) expect(alone[stage], name).toContain(name);
    });

    it(`has no export that only a consumer brings (${stage})`, () => {
      expect(alone[stage].length).toBeGreaterThan(0);
      const declared = Object.values(template(stage, 'data').Outputs ?? {})
        .flatMap((o) => (o.Export ? [o.Export.Name] : []))
        .sort();
      expect(declared).toEqual(alone[stage]);
    });
  }

  it('keeps the export names when an unrelated resource is added', () => {
    expect(alone.prod.length).toBeGreaterThan(0);
    for (const name of alone.prod) expect(name.startsWith(`${stackNames(config.prod).data}:`), name).toBe(true);
    expect(exportsAlone('prod', true)).toEqual(alone.prod);
  });
});
