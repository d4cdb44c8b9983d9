import { inject } from 'vitest';
import { type LocalConfig, localConfigSchema } from '../../local/config';

/**
 * A local stack's settings for an integration test (`settings` on top): in memory, no SPA,
 * and its tables in the tier's own DynamoDB Local (test/support/integration-setup.ts) under
 * a prefix of their own, so that no test file starts a JVM of its own.
 */
export function testStackConfig(settings: Record<string, string> = {}): LocalConfig {
  return localConfigSchema.parse({
    LOCAL_PERSISTENCE: 'memory',
    LOCAL_WEB: 'false',
    LOCAL_DYNAMODB_ENDPOINT: inject('dynamoDbEndpoint'),
    ...settings,
  });
}
