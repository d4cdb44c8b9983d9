import { z } from 'zod';
import { tables, type TableKey } from '../../lib/table-definitions';

// Environment shared by every function, parsed once at cold start. The CDK stack and
// the local stack set the same variables; a missing one fails the cold start loudly
// instead of failing a visitor's request later.
export const baseEnvSchema = z.object({
  STAGE: z.string().min(1),
  /** 'local' only under `npm start` and tests; bundles for AWS replace it at build time. */
  APP_MODE: z.enum(['aws', 'local']).default('aws'),
  /** DynamoDB Local's address; only in local mode. */
  DYNAMODB_ENDPOINT: z.url().optional(),
  AWS_REGION: z.string().default('ap-south-1'),
});
export type BaseEnv = z.infer<typeof baseEnvSchema>;

export function parseEnv<T extends z.ZodType>(schema: T, env: NodeJS.ProcessEnv = process.env): z.infer<T> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const names = result.error.issues.map((i) => i.path.join('.')).join(', ');
    throw new Error(`Invalid function configuration: ${names}`);
  }
  return result.data;
}

/** Name of a table from its environment variable; throws at cold start when unset. */
export function tableName(key: TableKey, env: NodeJS.ProcessEnv = process.env): string {
  const name = env[tables[key].envVar];
  if (!name) throw new Error(`Invalid function configuration: ${tables[key].envVar}`);
  return name;
}
