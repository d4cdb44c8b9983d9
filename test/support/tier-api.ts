import { inject } from 'vitest';
import { routes } from '../../lib/api-routes';
import { startApiAdapter, type ApiAdapter } from '../../local/api-adapter';
import { useLocalFunctionEnv } from './env';

/**
 * The route table served by the local adapter on the integration tier's tables and pool,
 * each route running the handler module the stack deploys; staff routes check the JWT as
 * API Gateway's authorizer does. `env` adds function settings (e.g. BULK_READ_ROWS).
 */
export function startTierApi(env: Record<string, string> = {}): Promise<ApiAdapter> {
  useLocalFunctionEnv(env);
  const pool = inject('pool');
  return startApiAdapter({
    port: 0,
    routes,
    loadHandler: async (name) => ((await import(`../../lambdas/handlers/${name}.ts`)) as { handler: never }).handler,
    jwt: { issuer: pool.issuer, audience: [pool.clientId] },
  });
}
