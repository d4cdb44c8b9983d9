import { join } from 'node:path';
import { writeLocalEndpoints } from '../../ops/target';

/**
 * Points the operator commands (ops/target.ts, local mode) at `tables` in the test's
 * DynamoDB Local, as `npm start` would with its endpoints file; no Cognito or queue (they
 * answer nothing). Undo with `delete process.env.LOCAL_DATA_DIR`.
 */
export function useLocalTarget(dir: string, dynamoDbEndpoint: string, tableNames: Record<string, string>): void {
  const dataDir = join(dir, 'local');
  writeLocalEndpoints(dataDir, {
    dynamoDbEndpoint,
    cognitoEndpoint: 'http://127.0.0.1:1',
    userPoolId: 'local_x',
    userPoolClientId: 'x',
    outboundQueueUrl: 'http://127.0.0.1:1/q',
    tableNames,
  });
  process.env.LOCAL_DATA_DIR = dataDir;
}
