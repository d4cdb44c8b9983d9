import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DynamoDBStreamHandler, SQSHandler } from 'aws-lambda';
import { routes } from '../lib/api-routes';
import { tables, type TableKey } from '../lib/table-definitions';
import type { RuntimeConfig } from '../rules/runtime-config';
import { startApiAdapter, type ApiAdapter } from './api-adapter';
import { captchaShimScript, startCaptchaStandIn } from './captcha';
import { ensurePool, ensureStaffUser, startCognitoLocal, type LocalPool } from './cognito';
import type { LocalConfig } from './config';
import { localSecrets } from './config';
import { ensureTables, localRegion, localTableNames, startDynamoDbLocal, type TableNames } from './dynamodb';
import { readJson } from './http-util';
import { renderOutbox } from './outbox-page';
import { freePort } from './ports';
import { createLocalQueue, type LocalQueue } from './queue';
import { startStreamPoller } from './stream-poller';
import { startWebhookSink, type WebhookSink } from './webhook-sink';
import { startWhatsAppSandbox, type WhatsAppSandbox } from './whatsapp-sandbox';

export interface LocalStack {
  readonly appUrl: string;
  readonly apiUrl: string;
  readonly dynamoDbEndpoint: string;
  readonly cognitoEndpoint: string;
  readonly pool: LocalPool;
  readonly tableNames: TableNames;
  readonly whatsAppUrl: string;
  readonly webhookSinkUrl: string;
  readonly admin: { readonly email: string; readonly password: string };
  /** The stand-ins themselves, for tests in the same process. */
  readonly whatsApp: WhatsAppSandbox;
  readonly sink: WebhookSink;
  readonly outbound: LocalQueue;
  stop(): Promise<void>;
}

const handlerModule = (name: string) => resolve(import.meta.dirname, '../lambdas/handlers', `${name}.ts`);

/** The environment the CDK stack gives each function, pointed at the local stand-ins. */
function functionEnvironment(parts: {
  tableNames: TableNames;
  dynamoDbEndpoint: string;
  whatsAppUrl: string;
  captchaUrl: string;
  webhookUrl: string;
  outboundQueueUrl: string;
}): Record<string, string> {
  const env: Record<string, string> = {
    STAGE: 'local',
    APP_MODE: 'local',
    AWS_REGION: localRegion,
    DYNAMODB_ENDPOINT: parts.dynamoDbEndpoint,
    POWERTOOLS_SERVICE_NAME: 'membership',
    WHATSAPP_API_BASE_URL: parts.whatsAppUrl,
    CAPTCHA_VERIFY_URL: `${parts.captchaUrl}/recaptcha/api/siteverify`,
    OUTBOUND_QUEUE_URL: parts.outboundQueueUrl,
    LOCAL_SECRETS: JSON.stringify({ ...localSecrets, webhookUrl: parts.webhookUrl }),
  };
  for (const key of Object.keys(tables) as TableKey[]) env[tables[key].envVar] = parts.tableNames[key];
  return env;
}

function send(res: ServerResponse, status: number, type: string, body: string): true {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
  return true;
}

/**
 * The whole product on one machine: DynamoDB Local, cognito-local, the WhatsApp
 * sandbox, the webhook sink, the captcha stand-in, the outbound queue, the stream
 * poller, the API adapter running the real handler modules, and the SPA from Vite.
 */
export async function startLocalStack(config: LocalConfig, log: (line: string) => void = () => {}): Promise<LocalStack> {
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  };
  try {
    const persistent = config.LOCAL_PERSISTENCE === 'disk';
    const dataDir = persistent ? resolve(config.LOCAL_DATA_DIR) : mkdtempSync(join(tmpdir(), 'membership-local-'));
    mkdirSync(dataDir, { recursive: true });

    const dynamo = await startDynamoDbLocal({
      port: await freePort(),
      ...(persistent && { dataDir: join(dataDir, 'dynamodb') }),
    });
    stops.push(() => dynamo.stop());
    const tableNames = localTableNames('local');
    await ensureTables(dynamo.client, tableNames);

    const cognito = await startCognitoLocal({ port: await freePort(), dataDir: join(dataDir, 'cognito') });
    stops.push(() => cognito.stop());
    const pool = await ensurePool(cognito);
    const admin = { email: config.LOCAL_ADMIN_EMAIL, password: config.LOCAL_ADMIN_PASSWORD };
    await ensureStaffUser(cognito, pool, { ...admin, groups: ['admin'] });

    const whatsApp = await startWhatsAppSandbox({
      port: await freePort(),
      accessToken: localSecrets.whatsappToken,
      phoneNumberId: localSecrets.whatsappPhoneNumberId,
    });
    stops.push(() => whatsApp.close());
    const sink = await startWebhookSink({
      port: await freePort(),
      username: localSecrets.webhookUsername,
      password: localSecrets.webhookPassword,
    });
    stops.push(() => sink.close());
    const captcha = await startCaptchaStandIn({ port: await freePort(), secret: localSecrets.recaptchaSecret });
    stops.push(() => captcha.close());

    const apiPort = await freePort();
    const outboundQueueUrl = `http://127.0.0.1:${apiPort}/dev/sqs/outbound`;
    Object.assign(
      process.env,
      functionEnvironment({
        tableNames,
        dynamoDbEndpoint: dynamo.endpoint,
        whatsAppUrl: whatsApp.url,
        captchaUrl: captcha.url,
        webhookUrl: `${sink.url}/hooks/application`,
        outboundQueueUrl,
      }),
    );

    const outbound = createLocalQueue({
      name: 'outbound',
      visibilityTimeoutMs: 30_000,
      maxReceiveCount: 5,
      handler: async (event, context) => {
        const module = (await import(handlerModule('outbound-consumer'))) as { handler: SQSHandler };
        return (await module.handler(event, context, () => undefined)) ?? undefined;
      },
      ...(persistent && { persistFile: join(dataDir, 'outbound-queue.json') }),
    });
    outbound.start();
    stops.push(async () => outbound.stop());

    const poller = await startStreamPoller({
      endpoint: dynamo.endpoint,
      tableName: tableNames.applications,
      handler: async (event, context) => {
        const module = (await import(handlerModule('applications-stream'))) as { handler: DynamoDBStreamHandler };
        return (await module.handler(event, context, () => undefined)) ?? undefined;
      },
      ...(persistent && { checkpointFile: join(dataDir, 'stream-checkpoints.json') }),
    });
    stops.push(async () => poller.stop());

    const runtimeConfig: RuntimeConfig = {
      stage: 'local',
      apiBasePath: '/api',
      defaultLanguage: config.LOCAL_DEFAULT_LANGUAGE,
      captcha: { siteKey: localSecrets.recaptchaSiteKey, scriptUrl: '/dev/captcha.js' },
      cognito: {
        region: localRegion,
        userPoolId: pool.userPoolId,
        userPoolClientId: pool.clientId,
        endpoint: cognito.endpoint,
      },
    };

    const dev = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
      if (req.method === 'POST' && url.pathname === '/dev/clock') {
        // Moves the handlers' clock (lambdas/lib/clock.ts) so a code can expire in a test.
        const body = (await readJson(req)) as { ok: boolean; value?: { offsetMs?: unknown } };
        const offset = body.ok ? Number(body.value?.offsetMs ?? 0) : NaN;
        if (!Number.isFinite(offset)) return send(res, 400, 'application/json', '{"message":"offsetMs must be a number"}');
        process.env.LOCAL_CLOCK_OFFSET_MS = String(offset);
        return send(res, 200, 'application/json', JSON.stringify({ offsetMs: offset }));
      }
      if (req.method !== 'GET') return false;
      switch (url.pathname) {
        case '/config.json':
          return send(res, 200, 'application/json', JSON.stringify(runtimeConfig));
        case '/dev/outbox.json':
          return send(res, 200, 'application/json', JSON.stringify(whatsApp.messages()));
        case '/dev/outbox':
          return send(res, 200, 'text/html; charset=utf-8', renderOutbox(whatsApp.messages()));
        case '/dev/webhooks.json':
          return send(res, 200, 'application/json', JSON.stringify(sink.deliveries()));
        case '/dev/queue.json':
          return send(res, 200, 'application/json', JSON.stringify({ ...outbound.stats(), deadLetters: outbound.deadLetters() }));
        case '/dev/captcha.js':
          return send(res, 200, 'text/javascript; charset=utf-8', captchaShimScript());
        default:
          return false;
      }
    };

    const api: ApiAdapter = await startApiAdapter({
      port: apiPort,
      routes,
      loadHandler: async (name) => ((await import(handlerModule(name))) as { handler: never }).handler,
      jwt: { issuer: pool.issuer, audience: [pool.clientId] },
      extra: dev,
      log,
    });
    stops.push(() => api.close());

    let appUrl = api.url;
    if (config.LOCAL_WEB) {
      process.env.LOCAL_API_URL = api.url;
      const { createServer } = await import('vite');
      const vite = await createServer({
        configFile: resolve(import.meta.dirname, '../web/vite.config.ts'),
        server: { port: config.PORT, strictPort: true, host: 'localhost' },
        logLevel: 'warn',
      });
      await vite.listen();
      stops.push(() => vite.close());
      appUrl = `http://localhost:${config.PORT}`;
    }

    return {
      appUrl,
      apiUrl: api.url,
      dynamoDbEndpoint: dynamo.endpoint,
      cognitoEndpoint: cognito.endpoint,
      pool,
      tableNames,
      whatsAppUrl: whatsApp.url,
      webhookSinkUrl: sink.url,
      admin,
      whatsApp,
      sink,
      outbound,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
