import { localRegion, tableEnv, type TableNames } from '../local/dynamodb';

/**
 * Points the Lambda modules a bench runs at its DynamoDB Local, as the stack would point
 * them at the stage's tables. Call it before importing them: their wiring reads it.
 */
export function useBenchFunctionEnv(endpoint: string, names: TableNames, more: Record<string, string> = {}): void {
  Object.assign(process.env, {
    STAGE: 'bench',
    APP_MODE: 'local',
    AWS_REGION: localRegion,
    DYNAMODB_ENDPOINT: endpoint,
    POWERTOOLS_LOG_LEVEL: 'ERROR',
    ...tableEnv(names),
    ...more,
  });
}
