import { inject } from 'vitest';
import { tables, type TableKey } from '../../contracts/table-definitions';

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
    ...Object.fromEntries((Object.keys(tables) as TableKey[]).map((k) => [tables[k].envVar, names[k] ?? ''])),
    ...overrides,
  });
}
