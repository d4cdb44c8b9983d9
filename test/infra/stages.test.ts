import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMembershipStacks, stackNames } from '../../lib/constructs/membership-stacks';
import { loadStageConfig, stageConfigs, stageNames } from '../../lib/stages';

// dev and prod side by side in one app, as they live side by side in one account.
// Bundling is skipped here: names and stacks are the point, not the code.

interface TemplateJson {
  readonly Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
}

/** Properties that fix a resource's physical name when they hold a literal. */
const physicalNameProperties: Readonly<Record<string, readonly string[]>> = {
  'AWS::DynamoDB::Table': ['TableName'],
  'AWS::Cognito::UserPool': ['UserPoolName'],
  'AWS::SecretsManager::Secret': ['Name'],
  'AWS::ApiGatewayV2::Api': ['Name'],
  'AWS::Lambda::Function': ['FunctionName'],
  'AWS::SQS::Queue': ['QueueName'],
  'AWS::SNS::Topic': ['TopicName'],
  'AWS::S3::Bucket': ['BucketName'],
  'AWS::Logs::LogGroup': ['LogGroupName'],
  'AWS::IAM::Role': ['RoleName'],
  'AWS::CloudFront::Function': ['Name'],
  'AWS::CloudFront::ResponseHeadersPolicy': ['ResponseHeadersPolicyConfig.Name'],
  'AWS::CloudWatch::Alarm': ['AlarmName'],
  'AWS::CloudWatch::Dashboard': ['DashboardName'],
  'AWS::WAFv2::WebACL': ['Name'],
  'AWS::SMSVOICE::ConfigurationSet': ['ConfigurationSetName'],
};

let workDir: string;
const templates = new Map<string, TemplateJson>();

beforeAll(() => {
  workDir = mkdtempSync(path.join(tmpdir(), 'membership-stages-'));
  const web = path.join(workDir, 'web');
  mkdirSync(web, { recursive: true });
  writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>test</title>');
  const app = new App({ outdir: path.join(workDir, 'cdk.out'), context: { 'aws:cdk:bundling-stacks': [] } });
  for (const stage of ['dev', 'prod'] as const) addMembershipStacks(app, loadStageConfig(stage), web);
  const assembly = app.synth();
  for (const stack of assembly.stacks) templates.set(stack.stackName, stack.template as TemplateJson);
});

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

/** Literal physical names of a stage's stacks (Data, App and, with a firewall, Edge). */
function physicalNames(stage: 'dev' | 'prod'): string[] {
  const names = stackNames({ stage });
  return [names.data, names.app, names.edge].flatMap((stackName) =>
    Object.values(templates.get(stackName)?.Resources ?? {}).flatMap((resource) =>
      (physicalNameProperties[resource.Type] ?? []).flatMap((key) => {
        const value = key
          .split('.')
          .reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part], resource.Properties);
        return typeof value === 'string' ? [value] : [];
      }),
    ),
  );
}

describe('stages', () => {
  it('validates the configuration of every stage', () => {
    for (const stage of stageNames) expect(loadStageConfig(stage).stage).toBe(stage);
    expect(loadStageConfig(undefined).stage).toBe('dev');
    expect(() => loadStageConfig('qa')).toThrow(/Unknown stage/);
  });

  it('retains data and protects it from deletion in prod only', () => {
    expect(loadStageConfig('prod').retainData).toBe(true);
    expect(stageConfigs.dev.retainData).toBe(false);
    const dev = templates.get(stackNames({ stage: 'dev' }).data)!;
    for (const table of Object.values(dev.Resources).filter((r) => r.Type === 'AWS::DynamoDB::Table')) {
      expect(table.Properties?.DeletionProtectionEnabled).toBe(false);
      expect(table.Properties?.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    }
  });

  it('synthesizes dev and prod in one app as differently named stacks, the firewall only where it is on', () => {
    expect([...templates.keys()].sort()).toEqual(
      [
        'Membership-dev-App',
        'Membership-dev-Data',
        'Membership-prod-App',
        'Membership-prod-Data',
        'Membership-prod-Edge',
      ].sort(),
    );
  });

  it('shares no physical name between stages, and every explicit name carries its stage', () => {
    const dev = physicalNames('dev');
    const prod = physicalNames('prod');
    expect(dev.length).toBeGreaterThan(0);
    // The same resources but prod's web ACL.
    expect(prod.length).toBe(dev.length + 1);
    expect(prod).toContain('membership-prod-edge');
    expect(dev.filter((name) => prod.includes(name))).toEqual([]);
    // Ours read membership-<stage>-...; CDK's generated ones embed the stack name.
    for (const name of dev) expect(name.toLowerCase()).toContain('dev');
    for (const name of prod) expect(name.toLowerCase()).toContain('prod');
  });

  it("keeps the firewall's cross-region hand-over under names of its own stage", () => {
    const writers = Object.values(templates.get(stackNames({ stage: 'prod' }).edge)!.Resources).filter(
      (r) => r.Type === 'Custom::CrossRegionExportWriter',
    );
    expect(writers).toHaveLength(1);
    const parameters = Object.keys(
      (writers[0]!.Properties!.WriterProps as { exports: Record<string, unknown> }).exports,
    );
    expect(parameters.length).toBeGreaterThan(0);
    for (const name of parameters) expect(name).toMatch(/^\/cdk\/exports\/Membership-prod-App\//);
  });
});
