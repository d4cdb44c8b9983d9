import { inject } from 'vitest';
import { COGNITO_ENDPOINT_ENV, STAFF_USER_POOL_ID_ENV } from '../../contracts/staff-directory';
import { tableEnv } from '../../local/dynamodb';

/** Points the handler modules at the integration tier's DynamoDB Local, as the local stack does. */
export function useLocalFunctionEnv(overrides: Record<string, string> = {}): void {
  const names = inject('tableNames');
  Object.assign(process.env, {
    STAGE: 'test',
    APP_MODE: 'local',
    AWS_REGION: 'ap-south-1',
    DYNAMODB_ENDPOINT: inject('dynamoDbEndpoint'),
    POWERTOOLS_LOG_LEVEL: 'WARN',
    POWERTOOLS_METRICS_DISABLED: 'true',
    ...tableEnv(names),
    // The staff-management function's pool (lambdas/handlers/staff-admin.ts).
    [COGNITO_ENDPOINT_ENV]: inject('cognitoEndpoint'),
    [STAFF_USER_POOL_ID_ENV]: inject('pool').userPoolId,
    ...overrides,
  });
}
