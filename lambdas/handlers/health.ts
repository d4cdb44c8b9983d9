import { type Db, GetCommand } from '../lib/db';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as v from 'valibot';
import { providerSecretFindings } from '../../contracts/config-findings';
import type { HealthResponse } from '../../rules/api';
import { makeSecretsLoader, type ProviderSecrets, secretsEnvSchema } from '../adapters/secrets';
import { baseEnvSchema, otpChannelModes, parseEnv, tableName, type OtpChannelMode } from '../lib/env';
import { makeDocumentClient } from '../lib/dynamo';
import { httpHandler, json } from '../lib/http';
import { logger } from '../lib/logger';
import { wiredOnFirstCall } from '../lib/wiring';

interface Deps {
  readonly db: Db;
  readonly applicationsTable: string;
  readonly stage: string;
  readonly clock: () => Date;
  /** Settings of the stage still holding placeholders, found at synth (lib/placeholders.ts). */
  readonly settingsPlaceholders: readonly string[];
  readonly otpChannels: OtpChannelMode;
  readonly providerSecrets: () => Promise<ProviderSecrets>;
}

/**
 * Liveness through every layer (a real read of the applications table), and whether the
 * stage is configured: the names of the settings and provider-secret fields still empty
 * or placeholders, for the operator's smoke test after a deploy. Names only, never a value;
 * the visitor's page reads `status` and ignores the rest.
 */
export function makeHandler({ db, applicationsTable, stage, clock, ...config }: Deps) {
  return httpHandler<APIGatewayProxyEventV2>(async () => {
    await db.send(new GetCommand({ TableName: applicationsTable, Key: { pk: 'HEALTH' }, ProjectionExpression: 'pk' }));
    const missing = [...config.settingsPlaceholders, ...(await secretFindings())];
    const body: HealthResponse = {
      status: 'ok',
      stage,
      database: 'ok',
      time: clock().toISOString(),
      configuration: { complete: missing.length === 0, missing },
    };
    return json(200, body);
  });

  async function secretFindings(): Promise<string[]> {
    try {
      const secret = await config.providerSecrets();
      return providerSecretFindings(secret, { stage, messaging: { otpChannels: config.otpChannels } }).map((f) => f.id);
    } catch (error) {
      logger.warn('Provider secret unreadable for the health check', { errorName: (error as Error).name });
      return ['secret:provider'];
    }
  }
}

const healthEnvSchema = v.object({
  ...baseEnvSchema.entries,
  /** Comma-separated setting paths (lib/stateless-stack.ts, from lib/placeholders.ts). */
  STAGE_PLACEHOLDERS: v.optional(v.string(), ''),
  OTP_CHANNELS: v.optional(v.picklist(otpChannelModes), 'whatsapp'),
});

export const handler = wiredOnFirstCall(() => {
  const env = parseEnv(healthEnvSchema);
  return makeHandler({
    db: makeDocumentClient(env),
    applicationsTable: tableName('applications'),
    stage: env.STAGE,
    clock: () => new Date(),
    settingsPlaceholders: env.STAGE_PLACEHOLDERS.split(',').filter(Boolean),
    otpChannels: env.OTP_CHANNELS,
    providerSecrets: makeSecretsLoader(parseEnv(secretsEnvSchema)).provider,
  });
});
