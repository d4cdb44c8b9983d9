import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { AppSecrets } from './constructs/app-secrets';
import { DataTables } from './constructs/data-tables';
import { StaffAuth } from './constructs/staff-auth';
import type { SecretName } from './functions';
import type { StageConfig } from './stages';
import type { TableKey } from '../contracts/table-definitions';

export interface StatefulStackProps extends StackProps {
  readonly config: StageConfig;
}

/**
 * What must survive every redeploy: tables, the staff user pool, secrets. Nothing here
 * changes when code changes, so an application deploy can never touch data.
 */
export class StatefulStack extends Stack {
  public readonly tables: Readonly<Record<TableKey, dynamodb.Table>>;
  public readonly userPool: cognito.UserPool;
  public readonly spaClient: cognito.UserPoolClient;
  /** Each secret by name: the functions are granted them one by one (lib/functions.ts). */
  public readonly secrets: Readonly<Record<SecretName, secretsmanager.ISecret>>;

  constructor(scope: Construct, id: string, props: StatefulStackProps) {
    super(scope, id, props);
    const { config } = props;

    this.tables = new DataTables(this, 'Data', { config }).tables;
    const auth = new StaffAuth(this, 'StaffAuth', { config });
    this.userPool = auth.userPool;
    this.spaClient = auth.spaClient;
    const secrets = new AppSecrets(this, 'Secrets', { config });
    this.secrets = { provider: secrets.providerSecret, ...secrets.keySecrets, origin: secrets.originSecret };

    this.exportForApp();

    new CfnOutput(this, 'UserPoolId', { value: this.userPool.userPoolId });
    new CfnOutput(this, 'UserPoolClientId', { value: this.spaClient.userPoolClientId });
    new CfnOutput(this, 'ProviderSecretArn', {
      value: secrets.providerSecret.secretArn,
      description: 'Fill this secret (JSON) with the WhatsApp, webhook and reCAPTCHA credentials',
    });
    for (const [key, table] of Object.entries(this.tables)) {
      new CfnOutput(this, `Table${key[0]!.toUpperCase()}${key.slice(1)}`, { value: table.tableName });
    }
  }

  /**
   * Every value the App stack imports, exported explicitly. CDK's automatic exports follow
   * their consumer: the day the App stack stops using one, CDK drops it from this stack too,
   * and CloudFormation refuses this stack's deploy while the App stack still imports it.
   * Declared here, an export outlives its use; its name is CDK's own (the stack's name and
   * the resource's logical id, nothing else), so it is the one the App stack imports.
   *
   * A new reference from the App stack needs its line here (test/infra/first-deploy.test.ts
   * fails without it). Removing one takes two deploys: first the App stack without the use
   * (this line stays), then this stack without the line.
   */
  private exportForApp(): void {
    for (const table of Object.values(this.tables)) {
      this.exportValue(table.tableName);
      this.exportValue(table.tableArn);
      if (table.tableStreamArn) this.exportValue(table.tableStreamArn);
    }
    this.exportValue(this.userPool.userPoolId);
    // The staff-management function's grant (lib/api-routes.ts `managesStaff`).
    this.exportValue(this.userPool.userPoolArn);
    this.exportValue(this.spaClient.userPoolClientId);
    for (const secret of Object.values(this.secrets)) this.exportValue(secret.secretArn);
  }
}
