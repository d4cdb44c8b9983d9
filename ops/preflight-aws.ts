import { type CloudFormationClient, DescribeStacksCommand, type Stack } from '@aws-sdk/client-cloudformation';
import type { PreflightReport } from './preflight-report';

// The preflight's AWS reads, with the operator's own credentials: how a failed call
// becomes a finding (or stops every AWS check), the CDK bootstrap of each region and the
// stage's stacks. The secret, the alarm destination and the quotas: preflight-deployed.ts
// and preflight-quotas.ts.

export const EDGE_REGION = 'us-east-1';

/** AWS could not be asked at all: every AWS check stops, with one finding. */
export class AwsUnreachable extends Error {
  constructor(
    readonly reason: 'credentials' | 'network',
    readonly detail: string,
  ) {
    super(`${reason}: ${detail}`);
    this.name = 'AwsUnreachable';
  }
}

const credentialErrors = new Set([
  'CredentialsProviderError',
  'ExpiredToken',
  'ExpiredTokenException',
  'InvalidClientTokenId',
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'SignatureDoesNotMatch',
  'TokenProviderError',
]);
const deniedErrors = new Set([
  'AccessDenied',
  'AccessDeniedException',
  'AuthorizationError',
  'AuthorizationErrorException',
]);
const networkCodes = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

type AwsFailure = 'credentials' | 'network' | 'denied' | 'other';

function classify(error: unknown): AwsFailure {
  const e = error as { name?: string; code?: string; cause?: { code?: string } };
  if (e.name && credentialErrors.has(e.name)) return 'credentials';
  if (e.name && deniedErrors.has(e.name)) return 'denied';
  if (e.name === 'TimeoutError' || networkCodes.has(e.code ?? '') || networkCodes.has(e.cause?.code ?? '')) {
    return 'network';
  }
  return 'other';
}

const describeError = (error: unknown) => {
  const e = error as { name?: string; message?: string; code?: string };
  return `${e.name ?? 'Error'}${e.code ? ` ${e.code}` : ''}: ${e.message ?? String(error)}`;
};

/**
 * One AWS read. No credentials or no network: AwsUnreachable (the caller stops asking AWS).
 * Refused or failed: a warning that names the permission and what went unchecked, and
 * undefined.
 */
export async function read<T>(
  report: PreflightReport,
  call: { action: string; region: string; what: string },
  run: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await run();
  } catch (error) {
    const failure = classify(error);
    if (failure === 'credentials' || failure === 'network') throw new AwsUnreachable(failure, describeError(error));
    report.add({
      id: `aws:${call.action}`,
      severity: 'warning',
      problem:
        failure === 'denied'
          ? `Your credentials may not call ${call.action} in ${call.region}.`
          : `${call.action} in ${call.region} failed (${describeError(error)}).`,
      why: `${call.what} was not checked: a fault there would go unnoticed until visitors meet it.`,
      fix:
        failure === 'denied'
          ? `Grant ${call.action} to the role you deploy with (docs/PREFLIGHT.md, "Permissions"), then run the preflight again.`
          : "Run the preflight again; if it fails the same way, look the error up in the service's documentation.",
    });
    return undefined;
  }
}

/** The stack, or null when it does not exist. */
async function describeStack(client: CloudFormationClient, stackName: string): Promise<Stack | null> {
  try {
    const result = await client.send(new DescribeStacksCommand({ StackName: stackName }));
    return result.Stacks?.[0] ?? null;
  } catch (error) {
    const e = error as { name?: string; message?: string };
    if (e.name === 'ValidationError' && /does not exist/.test(e.message ?? '')) return null;
    throw error;
  }
}

const outputsOf = (stack: Stack): Record<string, string> =>
  Object.fromEntries(
    (stack.Outputs ?? []).flatMap((o) => (o.OutputKey && o.OutputValue ? [[o.OutputKey, o.OutputValue]] : [])),
  );

/** States in which a stack serves what it last deployed. */
const servingStates = new Set([
  'CREATE_COMPLETE',
  'UPDATE_COMPLETE',
  'UPDATE_ROLLBACK_COMPLETE',
  'IMPORT_COMPLETE',
  'IMPORT_ROLLBACK_COMPLETE',
]);

/** aws-cdk-lib 2's DefaultStackSynthesizer refuses to deploy on an older bootstrap (its CheckBootstrapVersion rule). */
export const MINIMUM_BOOTSTRAP_VERSION = 6;

const bootstrapCommand = (region: string) =>
  `npx cdk bootstrap aws://$(aws sts get-caller-identity --query Account --output text)/${region}`;

export async function checkBootstrap(
  report: PreflightReport,
  client: CloudFormationClient,
  region: string,
): Promise<void> {
  const stack = await read(
    report,
    { action: 'cloudformation:DescribeStacks', region, what: `The CDK bootstrap of ${region}` },
    () => describeStack(client, 'CDKToolkit'),
  );
  if (stack === undefined) return;
  const why = `cdk deploy uploads the functions and the site to the bootstrap's bucket and deploys through its roles: without it the first deploy of ${region} fails at once.`;
  if (stack === null) {
    report.add({
      id: `bootstrap.${region}`,
      severity: 'blocking',
      problem: `${region} is not bootstrapped for the CDK: there is no CDKToolkit stack.`,
      why,
      fix: bootstrapCommand(region),
    });
    return;
  }
  const status = stack.StackStatus ?? 'UNKNOWN';
  const version = Number(outputsOf(stack).BootstrapVersion ?? 'NaN');
  if (!servingStates.has(status)) {
    report.add({
      id: `bootstrap.${region}`,
      severity: 'blocking',
      problem: `The CDKToolkit stack in ${region} is ${status}.`,
      why,
      fix: status.endsWith('_IN_PROGRESS')
        ? 'Wait until it is complete, then run the preflight again.'
        : `See its events (aws cloudformation describe-stack-events --stack-name CDKToolkit --region ${region}); if it never completed, delete it (aws cloudformation delete-stack --stack-name CDKToolkit --region ${region}) and run ${bootstrapCommand(region)}.`,
    });
  } else if (!(version >= MINIMUM_BOOTSTRAP_VERSION)) {
    report.add({
      id: `bootstrap.${region}`,
      severity: 'blocking',
      problem: `The CDK bootstrap of ${region} is version ${Number.isNaN(version) ? 'unknown' : version}; this CDK needs at least ${MINIMUM_BOOTSTRAP_VERSION}.`,
      why: "The templates' CheckBootstrapVersion rule refuses the deploy.",
      fix: `Upgrade it: ${bootstrapCommand(region)}`,
    });
  } else {
    report.pass(`${region} bootstrapped (CDKToolkit version ${version})`);
  }
}

/**
 * A stage stack's outputs when it serves, undefined when it does not (not deployed yet,
 * failed, or in progress: each said as a finding or a note).
 */
export async function checkStack(
  report: PreflightReport,
  client: CloudFormationClient,
  stack: { name: string; region: string; stage: string; skipped?: string },
): Promise<Record<string, string> | undefined> {
  const { name, region, stage, skipped } = stack;
  const found = await read(
    report,
    { action: 'cloudformation:DescribeStacks', region, what: `Whether ${name} is deployed` },
    () => describeStack(client, name),
  );
  if (found === undefined) return undefined;
  const deploy = `npx cdk deploy -c stage=${stage} --all`;
  if (found === null) {
    report.add({
      id: `stack:${name}`,
      severity: 'note',
      problem: `${name} is not deployed in ${region}.`,
      why: `Before a first deploy this is expected${skipped ? `; the checks of the deployed stage (${skipped}) were skipped` : ''}.`,
      fix: `Deploy (${deploy}), then run the preflight again.`,
    });
    return undefined;
  }
  const status = found.StackStatus ?? 'UNKNOWN';
  if (status.endsWith('_IN_PROGRESS')) {
    report.add({
      id: `stack:${name}`,
      severity: 'note',
      problem: `${name} is ${status}.`,
      why: skipped
        ? `The checks of the deployed stage (${skipped}) were skipped until it settles.`
        : 'Its state is not final.',
      fix: 'Run the preflight again when the deploy has finished.',
    });
    return undefined;
  }
  if (!servingStates.has(status)) {
    report.add({
      id: `stack:${name}`,
      severity: 'blocking',
      problem: `${name} is ${status}: its last create or delete failed.`,
      why: `A stack in ${status} serves nothing and cannot be updated; a failed first create must be deleted before the next deploy (resources kept by a retain policy, such as tables with fixed names, may have to be deleted by hand too).`,
      fix: `Read why: aws cloudformation describe-stack-events --stack-name ${name} --region ${region} --query "StackEvents[?contains(ResourceStatus,'FAILED')]". Fix the cause, then aws cloudformation delete-stack --stack-name ${name} --region ${region} and ${deploy}.`,
    });
    return undefined;
  }
  if (status === 'UPDATE_ROLLBACK_COMPLETE') {
    report.add({
      id: `stack:${name}`,
      severity: 'warning',
      problem: `The last update of ${name} rolled back.`,
      why: 'The stage still runs what was deployed before: the change you meant to ship is not live.',
      fix: `Read why: aws cloudformation describe-stack-events --stack-name ${name} --region ${region} --max-items 50; fix it and deploy again (${deploy}).`,
    });
  } else {
    report.pass(`${name} deployed (${status})`);
  }
  return outputsOf(found);
}

/**
 * `waf.enabled: false` no longer synthesizes the Edge stack, so `cdk deploy` leaves the one
 * deployed before in us-east-1 and `cdk destroy` of it only warns: it is found here, and
 * deleted with CloudFormation once the App stack no longer uses its web ACL.
 */
export async function checkLeftoverEdge(
  report: PreflightReport,
  client: CloudFormationClient,
  stack: { name: string; app: string; region: string; stage: string },
): Promise<void> {
  const { name, app, region, stage } = stack;
  const found = await read(
    report,
    { action: 'cloudformation:DescribeStacks', region, what: `Whether ${name} is left over` },
    () => describeStack(client, name),
  );
  if (!found || found.StackStatus === 'DELETE_COMPLETE') return;
  report.add({
    id: `stack:${name}`,
    severity: 'warning',
    problem: `${name} is still deployed in ${region} although waf.enabled is false for ${stage}.`,
    why: 'Turning the firewall off does not delete its stack: the web ACL keeps costing about 5 USD a month, and while the App stack still names it, CloudFront still filters through it.',
    fix: `Deploy the App stack first so that CloudFront lets go of the web ACL (npx cdk deploy ${app} -c stage=${stage}), then: aws cloudformation delete-stack --stack-name ${name} --region ${region} (docs/RUNBOOK.md, "Turn the firewall off").`,
  });
}
