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
import type { TableKey } from './table-definitions';

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
}
