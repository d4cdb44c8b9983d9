import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { EdgeFirewall } from './constructs/edge-firewall';
import type { StageConfig } from './stages';

export interface EdgeStackProps extends StackProps {
  readonly config: StageConfig;
}

/**
 * What CloudFront needs from us-east-1: the stage's web ACL. The App stack, in the
 * stage's own region, takes the ACL's ARN through CDK's cross-region references (an SSM
 * parameter written here into the App stack's region, read there at deploy), so one
 * `cdk deploy --all` deploys both in order and nothing is copied by hand. That hand-over
 * never rewrites a value under an existing name, so the ACL keeps a fixed name and logical
 * id (lib/constructs/edge-firewall.ts). Only stages with `waf.enabled` have this stack.
 */
export class EdgeStack extends Stack {
  public readonly firewall: EdgeFirewall;

  constructor(scope: Construct, id: string, props: EdgeStackProps) {
    super(scope, id, props);
    this.firewall = new EdgeFirewall(this, 'Firewall', { config: props.config });
  }
}
