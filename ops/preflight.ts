// `npm run preflight -- --stage NAME`: before and after `cdk deploy`, everything a first
// deploy needs that the CloudFormation template cannot check: placeholders in the stage's
// settings, the bootstrap of both regions, the provider secret's fields, the alarm
// destination, the reCAPTCHA secret, the WhatsApp number and templates, SMS and the
// account's quotas. Reads only, with the operator's credentials; never prints a secret.
// Exits 1 when the stage would not serve visitors or its alarms would reach nobody.
// What each check reads and the permissions it needs: docs/PREFLIGHT.md.
import { parseArgs } from 'node:util';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { PinpointSMSVoiceV2Client } from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SNSClient } from '@aws-sdk/client-sns';
import { isPlaceholder, usesSms } from '../contracts/config-findings';
import { settingsFindings } from '../lib/placeholders';
import { stackNames } from '../contracts/stack-names';
import { loadStageConfig, type StageConfig } from '../lib/stages';
import { runCommand } from './cli';
import { AwsUnreachable, checkBootstrap, checkLeftoverEdge, checkStack, EDGE_REGION } from './preflight-aws';
import { checkAlarmDestination, checkProviderSecret } from './preflight-deployed';
import { checkLambdaConcurrency, checkSms } from './preflight-quotas';
import { captchaDomainsNote, checkCaptchaSecret, checkWhatsapp } from './preflight-providers';
import { formatReport, PreflightReport, type PreflightFinding } from './preflight-report';

/** Clients in the stage's region, CloudFormation also in us-east-1 (the Edge stack), and fetch for Google and Meta. */
export interface PreflightDeps {
  readonly cloudFormation: CloudFormationClient;
  readonly edgeCloudFormation: CloudFormationClient;
  readonly secretsManager: SecretsManagerClient;
  readonly sns: SNSClient;
  readonly lambda: LambdaClient;
  readonly sms: PinpointSMSVoiceV2Client;
  readonly fetch: typeof fetch;
}

export async function runPreflight(config: StageConfig, deps: PreflightDeps): Promise<PreflightReport> {
  const report = new PreflightReport();
  report.add(...settingsFindings(config));
  let siteUrl: string | undefined;
  try {
    siteUrl = await deployedChecks(report, config, deps);
  } catch (error) {
    if (!(error instanceof AwsUnreachable)) throw error;
    report.add(unreachable(config, error));
  }
  captchaDomainsNote(report, config, siteUrl);
  return report;
}

/** Every check that needs AWS (and, through the secret, Google and Meta); the site's URL when deployed. */
async function deployedChecks(
  report: PreflightReport,
  config: StageConfig,
  deps: PreflightDeps,
): Promise<string | undefined> {
  const names = stackNames(config);
  const { region, stage } = config;
  // Account and region first: they hold before a first deploy too.
  await checkBootstrap(report, deps.cloudFormation, region);
  if (config.waf.enabled) await checkBootstrap(report, deps.edgeCloudFormation, EDGE_REGION);
  await checkLambdaConcurrency(report, deps.lambda, config);
  if (usesSms(config)) await checkSms(report, deps.sms, config);

  const data = await checkStack(report, deps.cloudFormation, {
    name: names.data,
    region,
    stage,
    skipped: 'the provider secret, the reCAPTCHA secret, the WhatsApp number and templates',
  });
  const app = await checkStack(report, deps.cloudFormation, {
    name: names.app,
    region,
    stage,
    skipped: 'the alarm destination',
  });
  if (config.waf.enabled) {
    await checkStack(report, deps.edgeCloudFormation, { name: names.edge, region: EDGE_REGION, stage });
  } else {
    await checkLeftoverEdge(report, deps.edgeCloudFormation, {
      name: names.edge,
      app: names.app,
      region: EDGE_REGION,
      stage,
    });
  }

  if (data) {
    const secret = await checkProviderSecret(report, deps.secretsManager, config, data.ProviderSecretArn);
    if (secret && !isPlaceholder(secret.recaptchaSecret)) {
      await checkCaptchaSecret(report, deps.fetch, config, secret.recaptchaSecret);
    }
    if (secret) await checkWhatsapp(report, deps.fetch, config, secret);
  }
  if (app) await checkAlarmDestination(report, deps.sns, config, app.AlarmTopicArn);
  return app?.SiteUrl;
}

function unreachable(config: StageConfig, error: AwsUnreachable): PreflightFinding {
  const checks =
    'the bootstrap, the deployed stacks, the provider secret, the alarm destination, the reCAPTCHA and WhatsApp answers, SMS and the Lambda quota';
  return {
    id: 'aws',
    severity: 'blocking',
    problem:
      error.reason === 'credentials'
        ? `Could not reach AWS: no usable credentials (${error.detail}).`
        : `Could not reach AWS: the network failed (${error.detail}).`,
    why: `Only the settings were checked; ${checks} were not: the stage is not known to be ready.`,
    fix:
      error.reason === 'credentials'
        ? `Run it with the credentials you deploy with: aws sso login --profile <profile>, then AWS_PROFILE=<profile> npm run preflight -- --stage ${config.stage} (or in AWS CloudShell, region ${config.region}); aws sts get-caller-identity shows whom AWS sees. The permissions it needs are in docs/PREFLIGHT.md.`
        : `Check that this machine reaches cloudformation.${config.region}.amazonaws.com (a proxy needs HTTPS_PROXY), then run the preflight again.`,
  };
}

function awsDeps(config: StageConfig): PreflightDeps {
  const region = config.region;
  return {
    cloudFormation: new CloudFormationClient({ region }),
    edgeCloudFormation: new CloudFormationClient({ region: EDGE_REGION }),
    secretsManager: new SecretsManagerClient({ region }),
    sns: new SNSClient({ region }),
    lambda: new LambdaClient({ region }),
    sms: new PinpointSMSVoiceV2Client({ region }),
    fetch,
  };
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { stage: { type: 'string' } } });
  if (!values.stage) throw new Error('Which stage? npm run preflight -- --stage <dev|staging|prod>');
  const config = loadStageConfig(values.stage);
  const deps = awsDeps(config);
  try {
    const report = await runPreflight(config, deps);
    process.stdout.write(formatReport(config, report));
    return report.exitCode;
  } finally {
    for (const client of [
      deps.cloudFormation,
      deps.edgeCloudFormation,
      deps.secretsManager,
      deps.sns,
      deps.lambda,
      deps.sms,
    ]) {
      client.destroy();
    }
  }
}

runCommand(import.meta.url, main);
