import { inject } from 'vitest';
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
    ...overrides,
  });
}
