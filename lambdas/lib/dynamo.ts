import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { BaseEnv } from './env';

/** One document client per container, pointed at DynamoDB Local in local mode. */
export function makeDocumentClient(env: BaseEnv): DynamoDBDocumentClient {
  const client = new DynamoDBClient(
    env.APP_MODE === 'local' && env.DYNAMODB_ENDPOINT
      ? {
          endpoint: env.DYNAMODB_ENDPOINT,
          region: env.AWS_REGION,
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : { region: env.AWS_REGION },
  );
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
}
