import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { localClientSettings } from '../../local/cognito';
import { addNagChecks } from '../../lib/constructs/membership-stacks';
import { StaffAuth } from '../../lib/constructs/staff-auth';
import { loadStageConfig, stageNames } from '../../lib/stages';

// Issue 14, item 3: staff sign-in that a phished password does not open. The staff pool
// of every AWS stage, synthesized alone (no bundling) with cdk-nag.

const workDir = mkdtempSync(path.join(tmpdir(), 'membership-staff-auth-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function synth(stage: (typeof stageNames)[number]) {
  const outdir = path.join(workDir, stage);
  const app = new App({ outdir, context: { '@aws-cdk/core:failSynthOnValidationErrors': false } });
  const stack = new Stack(app, `StaffAuth-${stage}`);
  new StaffAuth(stack, 'StaffAuth', { config: loadStageConfig(stage) });
  addNagChecks(app);
  const template = Template.fromStack(stack);
  app.synth();
  const report = JSON.parse(readFileSync(path.join(outdir, 'validation-report.json'), 'utf8')) as {
    pluginReports: { violations: { ruleName: string }[] }[];
  };
  return { template, rules: report.pluginReports.flatMap((p) => p.violations.map((v) => v.ruleName)) };
}

describe.each(stageNames)('the staff pool of %s', (stage) => {
  const { template, rules } = synth(stage);

  it('requires MFA of every user, by authenticator app (TOTP) only', () => {
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      MfaConfiguration: 'ON',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
    });
    const [pool] = Object.values(template.findResources('AWS::Cognito::UserPool'));
    // No SMS second factor: no role for Cognito to send SMS with.
    expect((pool?.Properties as { SmsConfiguration?: unknown }).SmsConfiguration).toBeUndefined();
  });

  it('signs in with SRP only, never the plain password flow', () => {
    const clients = Object.values(template.findResources('AWS::Cognito::UserPoolClient'));
    expect(clients).toHaveLength(1);
    expect([...(clients[0]?.Properties as { ExplicitAuthFlows: string[] }).ExplicitAuthFlows].sort()).toEqual([
      'ALLOW_REFRESH_TOKEN_AUTH',
      'ALLOW_USER_SRP_AUTH',
    ]);
  });

  it('gives 15-minute access and id tokens, refreshed silently, revocable', () => {
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      AccessTokenValidity: 15,
      IdTokenValidity: 15,
      RefreshTokenValidity: Match.anyValue(),
      EnableTokenRevocation: true,
      TokenValidityUnits: Match.objectLike({ AccessToken: 'minutes', IdToken: 'minutes' }),
    });
  });

  it('passes cdk-nag’s MFA rule without an acknowledgement (AwsSolutions-COG2)', () => {
    expect(rules.filter((r) => r.includes('COG2'))).toEqual([]);
  });
});

describe('local mode', () => {
  it('is the only place with USER_PASSWORD_AUTH (cognito-local has no SRP), with the same 15-minute tokens', () => {
    expect(localClientSettings.ExplicitAuthFlows).toContain('ALLOW_USER_PASSWORD_AUTH');
    expect(localClientSettings).toMatchObject({
      AccessTokenValidity: 15,
      IdTokenValidity: 15,
      TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes' },
    });
  });
});
