import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { BaseEnv } from './env';

/** A low-level client pointed at DynamoDB Local in local mode (Powertools idempotency takes this one). */
export function makeDynamoClient(env: BaseEnv): DynamoDBClient {
  return new DynamoDBClient(
    env.APP_MODE === 'local' && env.DYNAMODB_ENDPOINT
      ? {
          endpoint: env.DYNAMODB_ENDPOINT,
          region: env.AWS_REGION,
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : { region: env.AWS_REGION },
  );
}

/** One document client per container, pointed at DynamoDB Local in local mode. */
export function makeDocumentClient(env: BaseEnv): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(makeDynamoClient(env), {
    marshallOptions: { removeUndefinedValues: true },
  });
}
