import { type App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { StatefulStack } from '../stateful-stack';
import { StatelessStack } from '../stateless-stack';
import type { StageConfig } from '../stages';

export interface MembershipStacks {
  readonly data: StatefulStack;
  readonly app: StatelessStack;
}

/** Stack names carry the stage, so that every stage deploys independently. */
export function stackNames(config: Pick<StageConfig, 'stage'>): { data: string; app: string } {
  return { data: `Membership-${config.stage}-Data`, app: `Membership-${config.stage}-App` };
}

/** The two stacks of one stage: Data (stateful) and App (stateless, built on Data's resources). */
export function addMembershipStacks(app: App, config: StageConfig, webAssetDir: string): MembershipStacks {
  const names = stackNames(config);
  const env = { account: process.env.CDK_DEFAULT_ACCOUNT, region: config.region };
  const tags = { project: 'membership', stage: config.stage };

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
    description: `Membership ${config.stage}: functions, HTTP API, queue, web hosting`,
    env,
    tags,
    config,
    webAssetDir,
    tables: data.tables,
    userPool: data.userPool,
    spaClient: data.spaClient,
    providerSecret: data.providerSecret,
    keysSecret: data.keysSecret,
  });
  stateless.addStackDependency(data);
  return { data, app: stateless };
}

/** cdk-nag 3.x: a validation plugin, reported in the assembly's validation-report.json. */
export function addNagChecks(app: App): void {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
}
