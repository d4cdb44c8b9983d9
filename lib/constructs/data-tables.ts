import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { type StageConfig, resourcePrefix } from '../stages';
import { type KeyDefinition, type TableDefinition, type TableKey, tables } from '../../contracts/table-definitions';
import { pascalCase } from './project-function';
import { retainedDataPolicy } from './retention';

export interface DataTablesProps {
  readonly config: StageConfig;
}

const attribute = (key: KeyDefinition): dynamodb.Attribute => ({
  name: key.name,
  type: key.type === 'S' ? dynamodb.AttributeType.STRING : dynamodb.AttributeType.NUMBER,
});

/** Every DynamoDB table, built from contracts/table-definitions.ts and nothing else. */
export class DataTables extends Construct {
  public readonly tables: Readonly<Record<TableKey, dynamodb.Table>>;

  constructor(scope: Construct, id: string, { config }: DataTablesProps) {
    super(scope, id);
    const built: Partial<Record<TableKey, dynamodb.Table>> = {};

    for (const key of Object.keys(tables) as TableKey[]) {
      const definition: TableDefinition = tables[key];
      const table = new dynamodb.Table(this, pascalCase(definition.name), {
        tableName: `${resourcePrefix(config)}-${definition.name}`,
        partitionKey: attribute(definition.partitionKey),
        sortKey: definition.sortKey && attribute(definition.sortKey),
        billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
        encryption: dynamodb.TableEncryption.AWS_MANAGED,
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        deletionProtection: config.retainData,
        // Applications, audit, deliveries and rollups exist nowhere else. The fixed names
        // are why a failed first create must not keep its tables (lib/constructs/retention.ts).
        removalPolicy: retainedDataPolicy(config),
        timeToLiveAttribute: definition.ttlAttribute,
        stream: definition.stream && dynamodb.StreamViewType[definition.stream],
      });
      for (const index of definition.indexes) {
        table.addGlobalSecondaryIndex({
          indexName: index.indexName,
          partitionKey: attribute(index.partitionKey),
          sortKey: index.sortKey && attribute(index.sortKey),
          projectionType: dynamodb.ProjectionType.ALL,
        });
      }
      built[key] = table;
    }
    this.tables = built as Record<TableKey, dynamodb.Table>;
  }
}
