import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { ItemAction, TableAccess } from '../functions';
import type { StageConfig } from '../stages';
import type { TableDefinition } from '../../contracts/table-definitions';

/** Repository root, from this file's place in it (lib/constructs/). */
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface FunctionTableGrant {
  readonly table: dynamodb.ITable;
  /** Its entry in contracts/table-definitions.ts: env var name and indexes. */
  readonly definition: TableDefinition;
  readonly access: TableAccess;
  /** GetItem (read) or PutItem (write) of these partition keys only (lib/functions.ts, TableGrant.items). */
  readonly items?: readonly string[];
  /** With `items`: Query, DeleteItem or UpdateItem of them too (lib/functions.ts, TableGrant.itemActions). */
  readonly itemActions?: readonly ItemAction[];
}

interface FunctionSecretGrant {
  readonly secret: secretsmanager.ISecret;
  /** Environment variable that carries the secret's ARN (never its value). */
  readonly envVar: string;
}

export interface ProjectFunctionProps {
  /** Module under lambdas/handlers (without extension) exporting `handler`. */
  readonly handler: string;
  readonly description: string;
  readonly config: StageConfig;
  readonly logRemovalPolicy: RemovalPolicy;
  readonly timeout?: Duration;
  readonly memorySize?: number;
  readonly tables?: readonly FunctionTableGrant[];
  readonly secrets?: readonly FunctionSecretGrant[];
  /** Further non-secret settings. */
  readonly environment?: Readonly<Record<string, string>>;
  /** Concurrency reserved for (and capping) this function; unset: the account's shared pool. */
  readonly reservedConcurrentExecutions?: number;
}

/**
 * One Lambda function of the project: Node.js 22 on Graviton, an ESM bundle built
 * locally by esbuild, its own log group, and exactly the grants it is given.
 */
export class ProjectFunction extends Construct {
  public readonly function: NodejsFunction;
  public readonly logGroup: logs.LogGroup;
  public readonly role: iam.Role;

  constructor(scope: Construct, id: string, props: ProjectFunctionProps) {
    super(scope, id);
    const { config } = props;

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: config.logRetentionDays as logs.RetentionDays,
      removalPolicy: props.logRemovalPolicy,
    });

    // An own role instead of AWSLambdaBasicExecutionRole: it may write to its own log
    // group only, not create or write any log group of the account.
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `${props.handler} (${config.stage})`,
    });
    this.logGroup.grantWrite(this.role);

    const environment: Record<string, string> = {
      STAGE: config.stage,
      APP_MODE: 'aws',
      POWERTOOLS_SERVICE_NAME: 'membership',
      POWERTOOLS_LOG_LEVEL: 'INFO',
      NODE_OPTIONS: '--enable-source-maps',
      // Powertools Tracer (lambdas/lib/tracing.ts) follows the stage's tracing setting.
      POWERTOOLS_TRACE_ENABLED: String(config.tracing),
      ...props.environment,
    };
    for (const grant of props.tables ?? []) environment[grant.definition.envVar] = grant.table.tableName;
    for (const grant of props.secrets ?? []) environment[grant.envVar] = grant.secret.secretArn;

    this.function = new NodejsFunction(this, 'Function', {
      entry: path.join(projectRoot, 'lambdas', 'handlers', `${props.handler}.ts`),
      handler: 'handler',
      projectRoot,
      depsLockFilePath: path.join(projectRoot, 'package-lock.json'),
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      description: props.description,
      role: this.role,
      logGroup: this.logGroup,
      environment,
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      // X-Ray active tracing: each invocation's segment (cold start, init, duration) at
      // sampled cost. The staff and background functions add a subsegment per SDK call
      // (lambdas/lib/tracing.ts); the public ones do not, for their cold start. The HTTP
      // API in front has no X-Ray at all (only REST APIs do), which its access logs'
      // requestId and latencies stand in for.
      tracing: config.tracing ? lambda.Tracing.ACTIVE : undefined,
      bundling: {
        format: OutputFormat.ESM,
        mainFields: ['module', 'main'],
        // Some CommonJS dependencies call require(); ESM output has none without this.
        banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
        target: 'node22',
        minify: true,
        sourceMap: true,
        // Maps without the sources: stack traces still map to file and line, and the cold
        // start (--enable-source-maps reads the map) parses 0.9 MB instead of 2.8 MB
        // (`npm run bench -- lambda`: 8-13 ms CPU less per function).
        sourcesContent: false,
        // Local-only branches (DynamoDB Local, cognito-local) become dead code in AWS bundles.
        define: { 'process.env.APP_MODE': JSON.stringify('aws') },
        // Bundle the AWS SDK too: the version we test is the version that runs, and a
        // tree-shaken, minified bundle loads faster than the runtime's full SDK v3.
        bundleAwsSDK: true,
        externalModules: [],
      },
    });

    for (const grant of props.tables ?? []) this.grantTable(grant);
    for (const grant of props.secrets ?? []) grant.secret.grantRead(this.function);

    if (config.tracing) {
      Validations.of(this.role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'xray:PutTraceSegments and xray:PutTelemetryRecords, added by active tracing, support no resource-level permission.',
      });
    }
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Node.js 22 is the runtime the functions are built for (README, "Which Node"); Node.js 24 is newer but not yet adopted.',
    });
  }

  /**
   * The table itself through the usual grant, and its indexes by name: CDK's grants on a
   * table with indexes add `<table>/index/*`, a wildcard this function does not need.
   */
  private grantTable({ table, definition, access, items, itemActions = [] }: FunctionTableGrant): void {
    if (items) {
      // GetItem (or PutItem) of the named items only: the function can neither list the
      // table nor touch another item.
      const actions = { read: ['dynamodb:GetItem'], write: ['dynamodb:PutItem'] };
      const base = access === 'readwrite' ? [...actions.read, ...actions.write] : actions[access];
      this.role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: [...base, ...itemActions],
          resources: [table.tableArn],
          conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...items] } },
        }),
      );
      return;
    }
    const tableOnly = dynamodb.Table.fromTableAttributes(this, `${pascalCase(definition.name)}Table`, {
      tableArn: table.tableArn,
    });
    if (access === 'read') tableOnly.grantReadData(this.function);
    else if (access === 'write') tableOnly.grantWriteData(this.function);
    else tableOnly.grantReadWriteData(this.function);
    if (access !== 'write' && definition.indexes.length > 0) {
      this.role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: ['dynamodb:Query', 'dynamodb:Scan'],
          resources: definition.indexes.map((index) => `${table.tableArn}/index/${index.indexName}`),
        }),
      );
    }
  }
}

export function pascalCase(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}
