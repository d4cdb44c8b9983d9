import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GetTopicAttributesCommand, ListSubscriptionsByTopicCommand, type SNSClient } from '@aws-sdk/client-sns';
import * as v from 'valibot';
import { providerSecretsSchema, type ProviderSecrets } from '../lambdas/adapters/secrets';
import { providerSecretFindings } from '../contracts/config-findings';
import { stackNames } from '../contracts/stack-names';
import { issuePath } from '../rules/schema';
import type { StageConfig } from '../lib/stages';
import { read } from './preflight-aws';
import type { PreflightReport } from './preflight-report';

// The preflight's checks of a deployed stage in AWS: the provider secret's fields (never
// its values) and where the alarms go (the topic's policy and its subscriptions).

/** The provider secret, its empty fields reported; undefined when it could not be read. */
export async function checkProviderSecret(
  report: PreflightReport,
  client: SecretsManagerClient,
  config: StageConfig,
  secretArn: string | undefined,
): Promise<ProviderSecrets | undefined> {
  const dataStack = stackNames(config).data;
  if (!secretArn) {
    report.add({
      id: 'secret:provider',
      severity: 'warning',
      problem: `${dataStack} has no ProviderSecretArn output.`,
      why: 'The provider secret (reCAPTCHA, WhatsApp, webhook) was not checked.',
      fix: `Deploy the Data stack from main (npx cdk deploy -c stage=${config.stage} --all), then run the preflight again.`,
    });
    return undefined;
  }
  const result = await read(
    report,
    { action: 'secretsmanager:GetSecretValue', region: config.region, what: 'The provider secret' },
    () => client.send(new GetSecretValueCommand({ SecretId: secretArn })),
  );
  if (!result) return undefined;
  const unreadable = (problem: string) =>
    report.add({
      id: 'secret:provider',
      severity: 'blocking',
      problem,
      why: 'Every function that reads it fails: code requests, WhatsApp callbacks and the outbound queue stop.',
      fix: `Write it again as JSON with string fields (docs/RUNBOOK.md, "Secrets: set and rotate"); list its keys with aws secretsmanager get-secret-value --secret-id "$(aws cloudformation describe-stacks --stack-name ${dataStack} --region ${config.region} --query "Stacks[0].Outputs[?OutputKey=='ProviderSecretArn'].OutputValue" --output text)" --region ${config.region} --query SecretString --output text | jq 'keys'.`,
    });
  let json: unknown;
  try {
    json = JSON.parse(result.SecretString ?? '');
  } catch {
    // JSON.parse's message quotes the text: never print it.
    unreadable(`The provider secret of ${config.stage} is not JSON.`);
    return undefined;
  }
  const parsed = v.safeParse(providerSecretsSchema, json);
  if (!parsed.success) {
    const fields = [...new Set(parsed.issues.map((i) => issuePath(i) || '(the whole value)'))].join(', ');
    unreadable(`The provider secret of ${config.stage} has fields that are not strings: ${fields}.`);
    return undefined;
  }
  const empty = providerSecretFindings(parsed.output, config);
  report.add(...empty);
  if (empty.length === 0) report.pass('Provider secret: every field the stage reads is set');
  return parsed.output;
}

interface PolicyStatement {
  Effect?: string;
  Principal?: unknown;
  Action?: string | string[];
  Condition?: unknown;
}

const asList = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** CloudWatch may publish: a statement for its service principal, or SNS's own default policy (any principal of the account). */
export function topicPolicyAllowsCloudWatch(policyJson: string | undefined): boolean {
  if (!policyJson) return false;
  let statements: PolicyStatement[];
  try {
    statements = asList((JSON.parse(policyJson) as { Statement?: PolicyStatement | PolicyStatement[] }).Statement);
  } catch {
    return false;
  }
  const publishes = (s: PolicyStatement) =>
    asList(s.Action).some((a) => ['sns:publish', 'sns:*', '*'].includes(a.toLowerCase()));
  const principal = (s: PolicyStatement) => {
    if (s.Principal === '*') return 'anyone';
    const p = s.Principal as { Service?: string | string[]; AWS?: string | string[] } | undefined;
    if (asList(p?.Service).includes('cloudwatch.amazonaws.com')) return 'cloudwatch';
    if (asList(p?.AWS).includes('*')) return 'anyone';
    return 'other';
  };
  const allowed = statements.some((s) => s.Effect === 'Allow' && publishes(s) && principal(s) !== 'other');
  // A deny without a condition (the TLS deny has one) would refuse CloudWatch whatever else allows.
  const denied = statements.some(
    (s) => s.Effect === 'Deny' && publishes(s) && principal(s) !== 'other' && s.Condition === undefined,
  );
  return allowed && !denied;
}

export async function checkAlarmDestination(
  report: PreflightReport,
  client: SNSClient,
  config: StageConfig,
  topicArn: string | undefined,
): Promise<void> {
  const app = stackNames(config).app;
  const redeploy = `npx cdk deploy -c stage=${config.stage} --exclusively ${app}`;
  if (!topicArn) {
    report.add({
      id: 'alarms.topic',
      severity: 'warning',
      problem: `${app} has no AlarmTopicArn output: it was deployed from older code.`,
      why: 'Where the alarms go was not checked.',
      fix: `Deploy the App stack from main (${redeploy}), then run the preflight again.`,
    });
    return;
  }
  const attributes = await read(
    report,
    { action: 'sns:GetTopicAttributes', region: config.region, what: "The alarm topic's policy" },
    () => client.send(new GetTopicAttributesCommand({ TopicArn: topicArn })),
  );
  if (attributes) {
    if (topicPolicyAllowsCloudWatch(attributes.Attributes?.Policy)) {
      report.pass('Alarm topic: its policy lets CloudWatch publish');
    } else {
      report.add({
        id: 'alarms.topicPolicy',
        severity: 'blocking',
        problem: "The alarm topic's policy does not allow cloudwatch.amazonaws.com to sns:Publish.",
        why: 'Every alarm fires into nothing: CloudWatch is refused, and nobody hears of errors, dead letters or WhatsApp refusing.',
        fix: `Deploy the App stack from main, whose topic policy allows CloudWatch (${redeploy}); check with aws sns get-topic-attributes --topic-arn ${topicArn} --region ${config.region} --query Attributes.Policy.`,
      });
    }
  }

  const subscriptions = await read(
    report,
    { action: 'sns:ListSubscriptionsByTopic', region: config.region, what: "The alarm topic's subscriptions" },
    async () => {
      const all: { arn: string; protocol: string; endpoint: string }[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListSubscriptionsByTopicCommand({ TopicArn: topicArn, NextToken: token }));
        for (const s of page.Subscriptions ?? []) {
          all.push({ arn: s.SubscriptionArn ?? '', protocol: s.Protocol ?? '', endpoint: s.Endpoint ?? '' });
        }
        token = page.NextToken;
      } while (token);
      return all;
    },
  );
  if (!subscriptions) return;
  const confirmed = subscriptions.filter((s) => s.arn.startsWith('arn:'));
  const pending = subscriptions.filter((s) => s.arn === 'PendingConfirmation');
  if (confirmed.length > 0) {
    report.pass(
      `Alarm topic: ${confirmed.length} confirmed subscription(s) (${confirmed.map((s) => s.protocol).join(', ')})`,
    );
  } else if (pending.length > 0) {
    report.add({
      id: 'alarms.subscription',
      severity: 'blocking',
      problem: `The alarm subscription of ${pending.map((s) => s.endpoint).join(', ')} is pending confirmation.`,
      why: 'SNS sends nothing to an address that has not confirmed: the alarms reach nobody.',
      fix: `Confirm the e-mail: open "AWS Notification - Subscription Confirmation" in that inbox and click "Confirm subscription" (the link expires after 3 days; to get a new one, redeploy with ${redeploy} or subscribe again: aws sns subscribe --topic-arn ${topicArn} --protocol email --notification-endpoint <address> --region ${config.region}).`,
    });
  } else {
    report.add({
      id: 'alarms.subscription',
      severity: 'blocking',
      problem: 'The alarm topic has no subscription.',
      why: 'The alarms reach nobody.',
      fix: `Set alarmEmail for ${config.stage} in lib/stages.ts and deploy (${redeploy}), then confirm the e-mail AWS sends.`,
    });
  }
}
