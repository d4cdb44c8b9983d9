import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DynamoDBStreamHandler, SNSEvent, SQSHandler } from 'aws-lambda';
import { z } from 'zod';
import { routes } from '../lib/api-routes';
import { apiFunctionTimeoutSeconds, backgroundFunctions } from '../lib/functions';
import { requestDeadlineMs } from '../lambdas/lib/time-budget';
import { makeSearchIndex } from '../lambdas/adapters/search-index';
import { rebuildSearchIndex } from '../lambdas/lib/search-rebuild';
import { dataContactSchema, loadStageConfig } from '../lib/stages';
import { IST_OFFSET_MS } from '../rules/ist';
import type { RuntimeConfig } from '../rules/runtime-config';
import { startApiAdapter, type ApiAdapter } from './api-adapter';
import { cardPageHref } from '../rules/member-card';
import { captchaShimScript, startCaptchaStandIn } from './captcha';
import { COGNITO_ENDPOINT_ENV, STAFF_USER_POOL_ID_ENV } from '../contracts/staff-directory';
import { ensurePool, ensureStaffUser, startCognitoLocal, type LocalPool } from './cognito';
import type { LocalConfig } from './config';
import {
  localSecrets,
  localSmsFor,
  localWhatsAppDecisionTemplates,
  localWhatsAppGrievanceTemplate,
  localWhatsAppWelcomeTemplates,
  localWhatsAppWithdrawalTemplate,
} from './config';
import {
  ensureTables,
  localDb,
  localRegion,
  localTableNames,
  sharedDynamoDbLocal,
  startDynamoDbLocal,
  tableEnv,
  type TableNames,
} from './dynamodb';
import { readJson } from './http-util';
import { outboxEntries, renderOutbox } from './outbox-page';
import { freePort } from './ports';
import { createLocalQueue, localLambdaContext, type LocalQueue } from './queue';
import {
  smsFaultModes,
  startSmsSandbox,
  type SmsDeliveryEvent,
  type SmsSandbox,
  type SmsTemplateRegistration,
} from './sms-sandbox';
import { snsEvent } from './sns-event';
import { startSqsEndpoint } from './sqs-endpoint';
import { startStreamPoller, type StreamPoller } from './stream-poller';
import { seedDemoCampaigns } from './campaign-seed';
import { startWebhookSink, type WebhookSink } from './webhook-sink';
import { controlTierSchema, sandboxFaultModes, startWhatsAppSandbox, type WhatsAppSandbox } from './whatsapp-sandbox';

export interface LocalStack {
  readonly appUrl: string;
  readonly apiUrl: string;
  readonly dynamoDbEndpoint: string;
  readonly cognitoEndpoint: string;
  readonly pool: LocalPool;
  readonly tableNames: TableNames;
  readonly whatsAppUrl: string;
  /** The SMS sandbox (End User Messaging SMS's endpoint, what SMS_ENDPOINT holds). */
  readonly smsUrl: string;
  readonly webhookSinkUrl: string;
  /** The outbound queue's URL at the local SQS endpoint (what OUTBOUND_QUEUE_URL holds). */
  readonly outboundQueueUrl: string;
  /** The seeded admin; `totpSecret` makes their codes (local mode only, printed at start). */
  readonly admin: { readonly email: string; readonly password: string; readonly totpSecret: string };
  /** The seeded coordinator of Chennai and Tiruvallur (local mode only, printed at start). */
  readonly coordinator: {
    readonly email: string;
    readonly password: string;
    readonly totpSecret: string;
    readonly districts: string;
  };
  /** The stand-ins themselves, for tests in the same process. */
  readonly whatsApp: WhatsAppSandbox;
  readonly sms: SmsSandbox;
  readonly sink: WebhookSink;
  readonly outbound: LocalQueue;
  /** Feeds the applications stream to the rollups consumer (`drain()` waits for it to catch up). */
  readonly applicationsStream: StreamPoller;
  /** Runs the rollups ageing job now, as the midnight (IST) timer does. */
  runRollupsAgeing(): Promise<unknown>;
  stop(): Promise<void>;
}

/** As the dev stage's queue (lib/stages.ts `outbound`): receives before a message is dead-lettered. */
const outboundMaxReceiveCount = loadStageConfig('dev').outbound.maxReceiveCount;

/** Milliseconds until the next 00:00 IST. */
function msUntilIstMidnight(now = Date.now()): number {
  const day = 86_400_000;
  return day - ((now + IST_OFFSET_MS) % day);
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
  retryBaseSeconds: number;
  smsUrl: string;
  /** cognito-local and its pool: the staff-management function's (lambdas/handlers/staff-admin.ts). */
  cognitoEndpoint: string;
  userPoolId: string;
  /** Where the site is served: the card links in the messages lead there. */
  siteUrl: string;
  config: LocalConfig;
}): Record<string, string> {
  const { config } = parts;
  const localSms = localSmsFor(parts.siteUrl);
  // An SMS-only stage has no WhatsApp settings at all: the functions must not need them.
  const secrets =
    config.LOCAL_OTP_CHANNELS === 'sms'
      ? { ...localSecrets, whatsappToken: '', whatsappPhoneNumberId: '' }
      : localSecrets;
  const env: Record<string, string> = {
    STAGE: 'local',
    APP_MODE: 'local',
    AWS_REGION: localRegion,
    DYNAMODB_ENDPOINT: parts.dynamoDbEndpoint,
    POWERTOOLS_SERVICE_NAME: 'membership',
    // Embedded metrics are CloudWatch's; locally they would only crowd the console.
    POWERTOOLS_METRICS_DISABLED: 'true',
    WHATSAPP_API_BASE_URL: parts.whatsAppUrl,
    CAPTCHA_VERIFY_URL: `${parts.captchaUrl}/recaptcha/api/siteverify`,
    // As deployed: the code request's deadline below the API functions' timeout, which the adapter enforces.
    REQUEST_DEADLINE_MS: String(requestDeadlineMs(apiFunctionTimeoutSeconds)),
    OUTBOUND_QUEUE_URL: parts.outboundQueueUrl,
    OUTBOUND_RETRY_BASE_SECONDS: String(parts.retryBaseSeconds),
    // The consumer knows its last try by the count the queue dead-letters at.
    OUTBOUND_MAX_RECEIVE_COUNT: String(outboundMaxReceiveCount),
    // The sandbox, like Meta, refuses the welcome template without its header video.
    WHATSAPP_WELCOME_VIDEO_URL: localWelcomeVideoUrl,
    WHATSAPP_WELCOME_TEMPLATES: JSON.stringify(localWhatsAppWelcomeTemplates),
    LOCAL_SECRETS: JSON.stringify({ ...secrets, webhookUrl: parts.webhookUrl }),
    // Local stream batches take a few seconds at most; DynamoDB Local's indexes are synchronous.
    ROLLUPS_FENCE_SECONDS: '5',
    RETENTION_REJECTED_DAYS: String(localRejectedApplicationDays),
    RETENTION_CLOSED_GRIEVANCE_DAYS: String(localClosedGrievanceDays),
    // Messaging (docs/MESSAGING.md): the channels, the SMS sandbox and its DLT registration,
    // the WhatsApp tier and the decision notices.
    OTP_CHANNELS: config.LOCAL_OTP_CHANNELS,
    OTP_SMS_OFFER_AFTER_SECONDS: String(config.LOCAL_SMS_OFFER_AFTER_SECONDS),
    WHATSAPP_TIER_UNIQUE_PER_24H: String(config.LOCAL_WHATSAPP_TIER),
    SMS_ENDPOINT: parts.smsUrl,
    SMS_ORIGINATION_IDENTITY: localSms.originationIdentity,
    SMS_CONFIGURATION_SET: localSms.configurationSet,
    SMS_ENTITY_ID: localSms.entityId,
    SMS_TEMPLATES: JSON.stringify(localSms.templates),
    DECISION_NOTICES_ENABLED: 'true',
    DECISION_QUIET_SECONDS: String(config.LOCAL_DECISION_QUIET_SECONDS),
    WHATSAPP_DECISION_TEMPLATES: JSON.stringify(localWhatsAppDecisionTemplates),
    // The confirmation after an applicant's own withdrawal (issue 21).
    WITHDRAWAL_CONFIRMATIONS_ENABLED: 'true',
    WHATSAPP_WITHDRAWAL_TEMPLATE: JSON.stringify(localWhatsAppWithdrawalTemplate),
    // A grievance's answer (issue 21).
    WHATSAPP_GRIEVANCE_TEMPLATE: JSON.stringify(localWhatsAppGrievanceTemplate),
    // One local consumer (the queue hands it one batch at a time): it has each channel's whole rate.
    OUTBOUND_MAX_CONCURRENCY: '1',
    [COGNITO_ENDPOINT_ENV]: parts.cognitoEndpoint,
    [STAFF_USER_POOL_ID_ENV]: parts.userPoolId,
  };
  Object.assign(env, tableEnv(parts.tableNames));
  return env;
}

const localWelcomeVideoUrl = 'https://www.example.com/membership/welcome.mp4';
/** The stages' default (lib/stages.ts retention): a rejected application is kept a year. The notice says so. */
const localRejectedApplicationDays = 365;
/** The stages' default too: a closed grievance is kept a year after its closing. */
const localClosedGrievanceDays = 365;
/** Who the local notice names (a stage's is dataContact in lib/stages.ts), checked as a stage's is. */
const localDataContact = dataContactSchema.parse({
  name: "Data Protection Officer, Students' Wing (local)",
  email: 'privacy@example.com',
  phone: '+91 44 0000 0000',
});

/** The clock the handlers see (lambdas/lib/clock.ts), moved by POST /dev/clock; the sandboxes count on it too. */
const localNow = () => Date.now() + (Number(process.env.LOCAL_CLOCK_OFFSET_MS ?? 0) || 0);

/** The SMS sandbox knows every registered template; the outbox calls a notice a decision. */
const smsRegistrations = (siteUrl: string): SmsTemplateRegistration[] =>
  (['otp', 'approved', 'rejected', 'withdrawn', 'grievanceAnswer'] as const).flatMap((purpose) => {
    const { en, ta } = localSmsFor(siteUrl).templates[purpose];
    const kind =
      purpose === 'otp' || purpose === 'withdrawn' ? purpose : purpose === 'grievanceAnswer' ? 'grievance' : 'decision';
    return [en, ta].map(({ templateId, text }) => ({ templateId, text, kind }));
  });

const smsEventsTopic = { region: localRegion, accountId: '000000000000', name: 'membership-local-sms-events' };

const devFailSchema = <M extends readonly [string, ...string[]]>(modes: M) =>
  z.object({ mode: z.enum(modes), times: z.number().int().min(1).max(10_000).default(1) }).strict();
const whatsAppFailSchema = devFailSchema(sandboxFaultModes);
const smsFailSchema = devFailSchema(smsFaultModes);

function badRequest(res: ServerResponse, error: z.ZodError): true {
  return send(res, 400, 'application/json', JSON.stringify({ message: z.prettifyError(error) }));
}

/** A control route: its JSON body checked with `schema` (400 with why when it does not fit), then `act`'s answer. */
async function control<T>(req: IncomingMessage, res: ServerResponse, schema: z.ZodType<T>, act: (value: T) => unknown) {
  const body = await readJson(req);
  const parsed = schema.safeParse(body.ok ? body.value : undefined);
  if (!parsed.success) return badRequest(res, parsed.error);
  return send(res, 200, 'application/json', JSON.stringify(act(parsed.data)));
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
export async function startLocalStack(
  config: LocalConfig,
  log: (line: string) => void = () => {},
): Promise<LocalStack> {
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  };
  try {
    const persistent = config.LOCAL_PERSISTENCE === 'disk';
    const dataDir = persistent ? resolve(config.LOCAL_DATA_DIR) : mkdtempSync(join(tmpdir(), 'membership-local-'));
    mkdirSync(dataDir, { recursive: true });

    const shared = config.LOCAL_DYNAMODB_ENDPOINT;
    const tableNames = localTableNames(shared ? `local${randomBytes(4).toString('hex')}` : 'local');
    const dynamo = shared
      ? sharedDynamoDbLocal(shared, () => tableNames)
      : await startDynamoDbLocal(persistent ? { dataDir: join(dataDir, 'dynamodb') } : {});
    stops.push(() => dynamo.stop());
    await ensureTables(dynamo.client, tableNames);
    // Demo campaigns with fixed codes (README "Campaigns"): `/?c=state2` and the like.
    await seedDemoCampaigns(localDb(dynamo.endpoint), tableNames.campaigns);

    const cognito = await startCognitoLocal({ dataDir: join(dataDir, 'cognito') });
    stops.push(() => cognito.stop());
    const pool = await ensurePool(cognito);
    const seeded = { email: config.LOCAL_ADMIN_EMAIL, password: config.LOCAL_ADMIN_PASSWORD };
    // Enrolled with an authenticator at start-up (MFA is required); the secret is printed.
    const admin = { ...seeded, ...(await ensureStaffUser(cognito, pool, { ...seeded, groups: ['admin'] })) };
    const seededCoordinator = {
      email: config.LOCAL_COORDINATOR_EMAIL,
      password: config.LOCAL_COORDINATOR_PASSWORD,
      districts: 'chennai,tiruvallur',
    };
    const coordinator = {
      ...seededCoordinator,
      ...(await ensureStaffUser(cognito, pool, { ...seededCoordinator, groups: ['coordinator'] })),
    };

    // The site's address is known before anything starts: the messages' card links lead there.
    const apiPort = await freePort();
    const siteUrl = config.LOCAL_WEB ? `http://localhost:${config.PORT}` : `http://127.0.0.1:${apiPort}`;
    const localSms = localSmsFor(siteUrl);
    const whatsApp = await startWhatsAppSandbox({
      port: await freePort(),
      accessToken: localSecrets.whatsappToken,
      phoneNumberId: localSecrets.whatsappPhoneNumberId,
      decisionTemplates: {
        approved: localWhatsAppDecisionTemplates.approved.name,
        rejected: localWhatsAppDecisionTemplates.rejected.name,
        languages: Object.values(localWhatsAppDecisionTemplates.approved.languages),
        // As registered in WhatsApp Manager: the approval's button opens the member's card.
        approvedButtonUrl: `${siteUrl}${cardPageHref('{{1}}')}`,
      },
      withdrawalTemplate: {
        name: localWhatsAppWithdrawalTemplate.name,
        languages: Object.values(localWhatsAppWithdrawalTemplate.languages),
      },
      grievanceTemplate: {
        name: localWhatsAppGrievanceTemplate.name,
        languages: Object.values(localWhatsAppGrievanceTemplate.languages),
      },
      // The cap the functions count against (WHATSAPP_TIER_UNIQUE_PER_24H), enforced as Meta would.
      tier: { uniqueRecipientsPer24h: config.LOCAL_WHATSAPP_TIER > 0 ? config.LOCAL_WHATSAPP_TIER : null },
      now: localNow,
      log,
      // Status callbacks start once the API adapter listens (setWebhook below).
    });
    stops.push(() => whatsApp.close());

    // SNS hands each event to the subscribed function; a failed invocation is tried twice
    // more, as Lambda does for asynchronous invocations (there a minute or two apart).
    const deliverSmsEvent = async (event: SmsDeliveryEvent) => {
      const sns: SNSEvent = snsEvent(smsEventsTopic, event);
      for (let attempt = 1; ; attempt++) {
        try {
          const module = (await import(handlerModule('sms-events'))) as {
            handler: (event: SNSEvent, context: unknown) => Promise<unknown>;
          };
          await module.handler(
            sns,
            localLambdaContext('sms-events', backgroundFunctions.smsEvents.timeoutSeconds * 1000),
          );
          return;
        } catch (error) {
          if (attempt === 3) throw error;
          await new Promise((r) => setTimeout(r, attempt * 1000));
        }
      }
    };
    const sms = await startSmsSandbox({
      port: await freePort(),
      originationIdentity: localSms.originationIdentity,
      configurationSetName: localSms.configurationSet,
      entityId: localSms.entityId,
      templates: smsRegistrations(siteUrl),
      whitelistedUrls: localSms.whitelistedUrls,
      now: localNow,
      log,
      onEvent: deliverSmsEvent,
    });
    stops.push(() => sms.close());
    const sink = await startWebhookSink({
      port: await freePort(),
      username: localSecrets.webhookUsername,
      password: localSecrets.webhookPassword,
    });
    stops.push(() => sink.close());
    const captcha = await startCaptchaStandIn({ port: await freePort(), secret: localSecrets.recaptchaSecret });
    stops.push(() => captcha.close());

    const outbound = createLocalQueue({
      name: 'outbound',
      visibilityTimeoutMs: config.LOCAL_QUEUE_VISIBILITY_MS,
      maxReceiveCount: outboundMaxReceiveCount,
      functionTimeoutMs: backgroundFunctions.outboundConsumer.timeoutSeconds * 1000,
      handler: async (event, context) => {
        const module = (await import(handlerModule('outbound-consumer'))) as { handler: SQSHandler };
        return (await module.handler(event, context, () => undefined)) ?? undefined;
      },
      onError: ({ messageIds, error }) =>
        log(
          `outbound queue: ${messageIds.length} message(s) failed${error ? `: ${error}` : ''}; ` +
            'retried with backoff, then kept in the dead letters (/dev/queue.json)',
        ),
      ...(persistent && { persistFile: join(dataDir, 'outbound-queue.json') }),
    });
    // The Lambda code sends with the real SQS client, to this endpoint.
    const sqs = await startSqsEndpoint({ port: await freePort(), queues: { outbound } });
    stops.push(() => sqs.close());
    // Stopped before the endpoint closes: a last batch may still change a visibility.
    stops.push(async () => outbound.stop());
    const outboundQueueUrl = sqs.queueUrl(outbound.name);

    Object.assign(
      process.env,
      functionEnvironment({
        tableNames,
        dynamoDbEndpoint: dynamo.endpoint,
        whatsAppUrl: whatsApp.url,
        captchaUrl: captcha.url,
        webhookUrl: `${sink.url}/hooks/application`,
        outboundQueueUrl,
        // Whole seconds (SQS's unit), the same curve as the local queue's own backoff;
        // below one second the consumer leaves the delay to the queue.
        retryBaseSeconds: Math.floor(config.LOCAL_QUEUE_VISIBILITY_MS / 1000),
        smsUrl: sms.url,
        cognitoEndpoint: cognito.endpoint,
        userPoolId: pool.userPoolId,
        siteUrl,
        config,
      }),
    );
    outbound.start();

    const poller = await startStreamPoller({
      endpoint: dynamo.endpoint,
      tableName: tableNames.applications,
      handler: async (event, context) => {
        const module = (await import(handlerModule('applications-stream'))) as { handler: DynamoDBStreamHandler };
        return (await module.handler(event, context, () => undefined)) ?? undefined;
      },
      ...(persistent && { checkpointFile: join(dataDir, 'stream-checkpoints.json') }),
      onError: ({ error, sequenceNumbers }) =>
        log(`applications stream: ${error}${sequenceNumbers ? ` (${sequenceNumbers.length} record(s), retried)` : ''}`),
    });
    stops.push(async () => poller.stop());
    if (persistent) {
      // Data kept on disk from before the search index existed (issue 18): index what it
      // lacks (a few reads when nothing is missing), as `npm run search:rebuild` does.
      const db = localDb(dynamo.endpoint);
      const indexed = await rebuildSearchIndex(db, tableNames.applications, makeSearchIndex(db, tableNames.search));
      if (indexed.indexed > 0) log(`search index: ${indexed.indexed} stored application(s) indexed`);
    }

    // EventBridge runs the daily jobs (the rollups' ageing, retention) at 00:00 IST in AWS;
    // here a timer does, and a first run at start catches up with the days the stack was
    // not running.
    const dailyJob = (name: string) => async () => {
      const module = (await import(handlerModule(name))) as { handler: () => Promise<unknown> };
      return module.handler();
    };
    const runRollupsAgeing = dailyJob('rollups-ageing');
    const runRetention = dailyJob('retention');
    const runDailyJobs = () =>
      Promise.all([
        runRollupsAgeing().catch((error: unknown) => log(`rollups ageing failed: ${String(error)}`)),
        runRetention().catch((error: unknown) => log(`retention failed: ${String(error)}`)),
      ]);
    let dailyTimer: NodeJS.Timeout | undefined;
    let dailyStopped = false;
    const scheduleDailyJobs = () => {
      if (dailyStopped) return;
      dailyTimer = setTimeout(() => void runDailyJobs().finally(scheduleDailyJobs), msUntilIstMidnight() + 1000);
      dailyTimer.unref();
    };
    stops.push(async () => {
      dailyStopped = true;
      clearTimeout(dailyTimer);
    });

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
      dataNotice: { contact: localDataContact, rejectedApplicationDays: localRejectedApplicationDays },
    };

    const dev = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
      if (req.method === 'POST' && url.pathname === '/dev/clock') {
        // Moves the handlers' clock (lambdas/lib/clock.ts) so a code can expire in a test.
        const body = (await readJson(req)) as { ok: boolean; value?: { offsetMs?: unknown } };
        const offset = body.ok ? Number(body.value?.offsetMs ?? 0) : NaN;
        if (!Number.isFinite(offset))
          return send(res, 400, 'application/json', '{"message":"offsetMs must be a number"}');
        process.env.LOCAL_CLOCK_OFFSET_MS = String(offset);
        return send(res, 200, 'application/json', JSON.stringify({ offsetMs: offset }));
      }
      if (req.method === 'POST' && url.pathname === '/dev/whatsapp/fail') {
        // Arms the sandbox so that the next send(s) fail, to see the visitor's message (e2e).
        return control(req, res, whatsAppFailSchema, (fault) => {
          whatsApp.failNext(fault);
          return fault;
        });
      }
      if (req.method === 'POST' && url.pathname === '/dev/whatsapp/tier') {
        // Meta's limits of a new account: a unique-recipient cap (null lifts it) and messages per second.
        return control(req, res, controlTierSchema, (tier) => {
          whatsApp.setTier(tier);
          return whatsApp.tier();
        });
      }
      if (req.method === 'POST' && url.pathname === '/dev/whatsapp/reset') {
        // Empties the outbox, disarms faults, lifts tier changes and forgets the recipients counted:
        // a test file leaves the stand-ins as it found them.
        whatsApp.reset();
        return send(res, 200, 'application/json', '{"ok":true}');
      }
      if (req.method === 'POST' && url.pathname === '/dev/sms/fail') {
        return control(req, res, smsFailSchema, (fault) => {
          sms.failNext(fault);
          return fault;
        });
      }
      if (req.method === 'POST' && url.pathname === '/dev/sms/reset') {
        sms.reset();
        return send(res, 200, 'application/json', '{"ok":true}');
      }
      if (req.method === 'POST' && url.pathname === '/dev/webhooks/reset') {
        sink.reset();
        return send(res, 200, 'application/json', '{"ok":true}');
      }
      if (req.method !== 'GET') return false;
      switch (url.pathname) {
        case '/config.json':
          return send(res, 200, 'application/json', JSON.stringify(runtimeConfig));
        case '/dev/outbox.json':
          return send(res, 200, 'application/json', JSON.stringify(outboxEntries(whatsApp.messages(), sms.messages())));
        case '/dev/outbox':
          return send(
            res,
            200,
            'text/html; charset=utf-8',
            renderOutbox(outboxEntries(whatsApp.messages(), sms.messages())),
          );
        case '/dev/webhooks.json':
          return send(res, 200, 'application/json', JSON.stringify(sink.deliveries()));
        case '/dev/queue.json':
          return send(
            res,
            200,
            'application/json',
            JSON.stringify({ ...outbound.stats(), deadLetters: outbound.deadLetters() }),
          );
        case '/dev/captcha.js':
          return send(res, 200, 'text/javascript; charset=utf-8', captchaShimScript());
        default:
          return false;
      }
    };

    // Not awaited: the ageing's catch-up waits out the fence; reports are exact meanwhile.
    void runDailyJobs();
    scheduleDailyJobs();

    const api: ApiAdapter = await startApiAdapter({
      port: apiPort,
      routes,
      loadHandler: async (name) => ((await import(handlerModule(name))) as { handler: never }).handler,
      jwt: { issuer: pool.issuer, audience: [pool.clientId] },
      extra: dev,
      log,
    });
    stops.push(() => api.close());
    // Meta posts statuses to the public webhook route; the handler checks the signature.
    whatsApp.setWebhook({ url: `${api.url}/api/whatsapp/webhook`, appSecret: localSecrets.whatsappAppSecret });

    let appUrl = api.url;
    if (config.LOCAL_WEB) {
      process.env.LOCAL_API_URL = api.url;
      const configFile = resolve(import.meta.dirname, '../web/vite.config.ts');
      if (config.LOCAL_WEB_DIST) {
        // The built SPA, with /config.json from the API adapter as in dev (a deploy writes the file).
        const { preview } = await import('vite');
        const server = await preview({
          configFile,
          build: { outDir: resolve(config.LOCAL_WEB_DIST) },
          preview: {
            port: config.PORT,
            strictPort: true,
            host: 'localhost',
            proxy: { '/config.json': { target: api.url } },
          },
          logLevel: 'warn',
        });
        stops.push(() => server.close());
      } else {
        const { createServer } = await import('vite');
        const vite = await createServer({
          configFile,
          server: { port: config.PORT, strictPort: true, host: 'localhost' },
          logLevel: 'warn',
        });
        await vite.listen();
        stops.push(() => vite.close());
      }
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
      smsUrl: sms.url,
      webhookSinkUrl: sink.url,
      outboundQueueUrl,
      admin,
      coordinator,
      whatsApp,
      sms,
      sink,
      outbound,
      applicationsStream: poller,
      runRollupsAgeing,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
