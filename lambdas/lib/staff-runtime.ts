import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { makeDocumentClient } from './dynamo';
import { baseEnvSchema, parseEnv, tableName } from './env';

// What the staff handlers are wired from: one DynamoDB client and the table names.
export interface StaffRuntime {
  readonly db: DynamoDBDocumentClient;
  readonly tables: { readonly applications: string; readonly audit: string };
}

export function staffRuntime(): StaffRuntime {
  const env = parseEnv(baseEnvSchema);
  return {
    db: makeDocumentClient(env),
    tables: { applications: tableName('applications'), audit: tableName('audit') },
  };
}
