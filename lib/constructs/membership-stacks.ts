import { type App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { EdgeStack } from '../edge-stack';
import { StatefulStack } from '../stateful-stack';
import { stackNames } from '../../contracts/stack-names';
import { StatelessStack } from '../stateless-stack';
import type { StageConfig } from '../stages';

export { stackNames };

export interface MembershipStacks {
  readonly data: StatefulStack;
  readonly app: StatelessStack;
  /** us-east-1: the web ACL, for stages with `waf.enabled`. */
  readonly edge?: EdgeStack;
}

/** CloudFront takes its web ACL and certificate from this region only. */
export const EDGE_REGION = 'us-east-1';

/**
 * The stacks of one stage: Data (stateful), App (stateless, built on Data's resources)
 * and, with `waf.enabled`, Edge (the web ACL in us-east-1, whose ARN the App stack reads
 * through a cross-region reference).
 */
export function addMembershipStacks(app: App, config: StageConfig, webAssetDir: string): MembershipStacks {
  const names = stackNames(config);
  const env = { account: process.env.CDK_DEFAULT_ACCOUNT, region: config.region };
  const tags = { project: 'membership', stage: config.stage };

  const edge = config.waf.enabled
    ? new EdgeStack(app, names.edge, {
        stackName: names.edge,
        description: `Membership ${config.stage}: the CloudFront web ACL (us-east-1)`,
        env: { account: env.account, region: EDGE_REGION },
        tags,
        config,
      })
    : undefined;

  const data = new StatefulStack(app, names.data, {
    stackName: names.data,
    description: `Membership ${config.stage}: tables, staff user pool, secrets (retained data)`,
    env,
    tags,
    terminationProtection: config.retainData,
    config,
  });
  const stateless = new StatelessStack(app, names.app, {
    stackName: names.app,
    description: `Membership ${config.stage}: functions, HTTP API, queue, web hosting, alarms, dashboard`,
    env,
    tags,
    // The web ACL's ARN crosses from us-east-1: CDK writes it as an SSM parameter in this
    // stack's region from the Edge stack, and reads it here at deploy time. The parameter
    // is written once per name, never updated: hence the ACL's fixed identity (edge-firewall.ts).
    // Data's values come through explicit exports (stateful-stack.ts).
    crossRegionReferences: edge !== undefined,
    config,
    webAssetDir,
    tables: data.tables,
    userPool: data.userPool,
    spaClient: data.spaClient,
    secrets: data.secrets,
    webAcl: edge ? { arn: edge.firewall.webAcl.attrArn, name: edge.firewall.webAclName } : undefined,
  });
  stateless.addStackDependency(data);
  return { data, app: stateless, edge };
}

/** cdk-nag 3.x: a validation plugin, reported in the assembly's validation-report.json. */
export function addNagChecks(app: App): void {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
}
