import { requestDeadlineMs } from '../lambdas/lib/time-budget';
import { CfnOutput, CrossStackReferences, Duration, ReferenceStrength, Stack, type StackProps } from 'aws-cdk-lib';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { type RouteDefinition, routes as allRoutes } from './api-routes';
import { Alarms } from './constructs/alarms';
import { ApplicationsStream } from './constructs/applications-stream';
import { HttpApi } from './constructs/http-api';
import { Monitoring } from './constructs/monitoring';
import { acknowledgeCdkSingletonFunctions } from './constructs/nag-acknowledgements';
import { OutboundMessaging } from './constructs/outbound-messaging';
import { ProjectFunction, pascalCase } from './constructs/project-function';
import { settingsFindings } from './placeholders';
import { retainedDataPolicy } from './constructs/retention';
import { DailyJob } from './constructs/daily-job';
import { SmsChannel } from './constructs/sms-channel';
import { WebHosting } from './constructs/web-hosting';
import {
  type FunctionNeeds,
  type TableGrant,
  apiFunctionTimeoutSeconds,
  backgroundFunctions,
  handlerNeeds,
  handlerTableGrants,
  outboundQueueEnvVar,
  type SecretName,
  secretEnvVars,
} from './functions';
import type { StageConfig } from './stages';
import { METRICS_NAMESPACE, type MetricName, stageMetricDimensions } from '../contracts/metric-definitions';
import { STAFF_USER_POOL_ID_ENV, staffDirectoryActions } from '../contracts/staff-directory';
import { type TableKey, tables as tableDefinitions } from '../contracts/table-definitions';

export interface StatelessStackProps extends StackProps {
  readonly config: StageConfig;
  /** The Data stack's resources. */
  readonly tables: Readonly<Record<TableKey, dynamodb.ITable>>;
  readonly userPool: cognito.IUserPool;
  readonly spaClient: cognito.IUserPoolClient;
  /** Each of the stage's secrets, granted one by one. */
  readonly secrets: Readonly<Record<SecretName, secretsmanager.ISecret>>;
  /** The built SPA. */
  readonly webAssetDir: string;
  /** Defaults to lib/api-routes.ts. */
  readonly routes?: readonly RouteDefinition[];
  /** The stage's web ACL from its Edge stack (us-east-1), when `waf.enabled`. */
  readonly webAcl?: { readonly arn: string; readonly name: string };
}

interface FunctionSpec extends FunctionNeeds {
  readonly handler: string;
  readonly description: string;
  readonly tables: readonly TableGrant[];
  readonly timeout: Duration;
  /** Further non-secret settings of this function. */
  readonly environment?: Readonly<Record<string, string>>;
  readonly reservedConcurrentExecutions?: number;
  /** Serves API routes: reads the origin secret for the front-door check (lambdas/lib/front-door.ts). */
  readonly api?: boolean;
}

/**
 * The stage's messaging settings (lambdas/lib/env.ts messagingEnvShape) as environment
 * variables. `smsChannel` is the stage's SMS channel, when it has one.
 */
function messagingEnvironment(config: StageConfig, smsChannel?: SmsChannel): Record<string, string> {
  const { messaging } = config;
  const sms = messaging.sms;
  const notices = messaging.decisionNotices;
  return {
    OTP_CHANNELS: messaging.otpChannels,
    OTP_SMS_OFFER_AFTER_SECONDS: String(messaging.smsOfferAfterSeconds),
    WHATSAPP_TIER_UNIQUE_PER_24H: String(messaging.whatsappTier.uniqueRecipientsPer24h),
    WHATSAPP_MESSAGES_PER_SECOND: String(messaging.whatsappMessagesPerSecond),
    ...(sms && smsChannel
      ? {
          SMS_MESSAGES_PER_SECOND: String(sms.messagesPerSecond),
          // The sender id's ARN: the very resource the functions' SMS permission names.
          SMS_ORIGINATION_IDENTITY: smsChannel.senderIdArn,
          SMS_CONFIGURATION_SET: smsChannel.configurationSetName,
          SMS_ENTITY_ID: sms.entityId,
          SMS_TEMPLATES: JSON.stringify(sms.templates),
        }
      : { SMS_ORIGINATION_IDENTITY: '', SMS_CONFIGURATION_SET: '', SMS_ENTITY_ID: '', SMS_TEMPLATES: '' }),
    DECISION_NOTICES_ENABLED: String(notices.enabled),
    DECISION_QUIET_SECONDS: String(notices.quietPeriodSeconds),
    WHATSAPP_DECISION_TEMPLATES: notices.whatsappTemplates ? JSON.stringify(notices.whatsappTemplates) : '',
    WITHDRAWAL_CONFIRMATIONS_ENABLED: String(messaging.withdrawalConfirmations.enabled),
    WHATSAPP_WITHDRAWAL_TEMPLATE: JSON.stringify(messaging.withdrawalConfirmations.whatsappTemplate),
    WHATSAPP_GRIEVANCE_TEMPLATE: JSON.stringify(messaging.grievanceAnswers.whatsappTemplate),
  };
}

/**
 * Code and everything that can be rebuilt from code: functions, the HTTP API, the
 * outbound queue, web hosting, alarms and the dashboard. It holds no data that a
 * redeploy could lose.
 */
export class StatelessStack extends Stack {
  public readonly functions: ReadonlyMap<string, ProjectFunction>;

  constructor(scope: Construct, id: string, props: StatelessStackProps) {
    super(scope, id, props);
    // Exports/imports: CloudFormation refuses to delete or change a Data resource while
    // this stack still uses it, which is the protection the data needs.
    CrossStackReferences.of(this).consume(ReferenceStrength.STRONG);
    const { config } = props;
    // Function and API access logs are the record of who did what: kept when the stack is
    // deleted or a log group replaced, not left behind by a failed first create.
    const logRemovalPolicy = retainedDataPolicy(config);
    const functions = new Map<string, ProjectFunction>();
    this.functions = functions;

    const alarms = new Alarms(this, 'Alarms', { config });
    const outboundConsumerTimeout = Duration.seconds(backgroundFunctions.outboundConsumer.timeoutSeconds);
    const outbound = new OutboundMessaging(this, 'Outbound', {
      config,
      alarms,
      consumerTimeout: outboundConsumerTimeout,
    });

    // The public flow's settings (lambdas/lib/env.ts publicFlowEnvSchema), for the
    // functions of that flow: those that read the secrets. None of them is a secret.
    const { limits, whatsapp, captcha } = config;
    const publicFlowSettings: Record<string, string> = {
      WHATSAPP_AUTH_TEMPLATE: whatsapp.authTemplate,
      WHATSAPP_AUTH_LANGUAGE: whatsapp.authTemplateLanguage,
      WHATSAPP_WELCOME_TEMPLATES: JSON.stringify(whatsapp.welcomeTemplates),
      WHATSAPP_WELCOME_VIDEO_URL: whatsapp.welcomeVideoUrl,
      CAPTCHA_MIN_SCORE: String(captcha.scoreThreshold),
      // Empty: any hostname (the site key is bound to its domains in the reCAPTCHA console).
      CAPTCHA_HOSTNAMES: config.customDomain?.domainName ?? '',
      OTP_TTL_SECONDS: String(limits.otpTtlSeconds),
      OTP_MAX_ATTEMPTS: String(limits.otpMaxAttempts),
      OTP_RESEND_SECONDS: String(limits.otpResendSeconds),
      OTP_MAX_PER_HOUR: String(limits.otpMaxPerHour),
      OTP_MAX_PER_DAY: String(limits.otpMaxPerDay),
      OTP_MAX_PER_IP_PER_HOUR: String(limits.otpMaxPerIpPerHour),
      OTP_VERIFY_MAX_PER_HOUR: String(limits.otpVerifyMaxPerHour),
      OTP_VERIFY_MAX_PER_IP_PER_HOUR: String(limits.otpVerifyMaxPerIpPerHour),
      VERIFICATION_TTL_SECONDS: String(limits.verificationTtlSeconds),
      GRIEVANCE_MAX_PER_DAY: String(limits.grievanceMaxPerDay),
      GRIEVANCE_MAX_PER_IP_PER_HOUR: String(limits.grievanceMaxPerIpPerHour),
      // The code request's one deadline, below its function's timeout (lambdas/lib/time-budget.ts).
      REQUEST_DEADLINE_MS: String(requestDeadlineMs(apiFunctionTimeoutSeconds)),
    };

    // SMS through End User Messaging SMS, where the stage has it (messaging.sms).
    const smsChannel = config.messaging.sms
      ? new SmsChannel(this, 'Sms', { config, sms: config.messaging.sms, alarms })
      : undefined;
    const messagingSettings = messagingEnvironment(config, smsChannel);

    const build = (id: string, spec: FunctionSpec): ProjectFunction => {
      // The public flow's settings go to the functions that hold its keys.
      const publicFlow = spec.secrets?.some((name) => name === 'otpHashKey' || name === 'signingKey') ?? false;
      const fn = new ProjectFunction(this, id, {
        handler: spec.handler,
        description: `${spec.description} (${config.stage})`,
        config,
        logRemovalPolicy,
        timeout: spec.timeout,
        tables: spec.tables.map(({ table, access, items, itemActions }) => ({
          table: props.tables[table],
          definition: tableDefinitions[table],
          access,
          ...(items && { items }),
          ...(itemActions && { itemActions }),
        })),
        // One grant per secret, and only those the function reads.
        secrets: [...(spec.secrets ?? []), ...(spec.api ? ['origin' as const] : [])].map((name) => ({
          secret: props.secrets[name],
          envVar: secretEnvVars[name],
        })),
        environment: {
          ...(publicFlow ? publicFlowSettings : {}),
          ...(spec.secrets || spec.sendsOutbound || spec.sendsSms ? messagingSettings : {}),
          ...(spec.sendsOutbound ? { [outboundQueueEnvVar]: outbound.queue.queueUrl } : {}),
          ...(spec.managesStaff ? { [STAFF_USER_POOL_ID_ENV]: props.userPool.userPoolId } : {}),
          ...spec.environment,
        },
        reservedConcurrentExecutions: spec.reservedConcurrentExecutions,
      });
      if (spec.sendsOutbound) outbound.queue.grantSendMessages(fn.function);
      if (spec.sendsSms && smsChannel) smsChannel.grantSend(fn);
      // The staff pool's users, by exactly the calls the directory makes, on that pool only.
      if (spec.managesStaff) {
        fn.role.addToPolicy(
          new iam.PolicyStatement({ actions: [...staffDirectoryActions], resources: [props.userPool.userPoolArn] }),
        );
      }
      functions.set(spec.handler, fn);
      return fn;
    };

    // One function per handler module, named after it, with what all its routes need.
    const routes = props.routes ?? allRoutes;
    const routeFunctions = new Map<RouteDefinition, ProjectFunction>();
    for (const route of routes) {
      const served = routes.filter((r) => r.handler === route.handler);
      const fn =
        functions.get(route.handler) ??
        build(`${pascalCase(route.handler)}Function`, {
          handler: route.handler,
          description: served.map((r) => `${r.method} ${r.path}`).join(', '),
          tables: handlerTableGrants(routes, route.handler),
          timeout: Duration.seconds(apiFunctionTimeoutSeconds),
          api: true,
          ...handlerNeeds(routes, route.handler),
          reservedConcurrentExecutions: config.api.reservedConcurrency[route.handler],
          // The health route names the stage's settings still holding placeholders.
          ...(route.handler === 'health' && {
            environment: {
              STAGE_PLACEHOLDERS: settingsFindings(config)
                .map((f) => f.id)
                .join(','),
            },
          }),
        });
      routeFunctions.set(route, fn);
    }

    const api = new HttpApi(this, 'Http', {
      config,
      routes,
      functionFor: (route) => routeFunctions.get(route)!.function,
      userPool: props.userPool,
      spaClient: props.spaClient,
      logRemovalPolicy,
    });

    const { outboundConsumer, smsEvents, applicationsStream, rollupsAgeing, retention } = backgroundFunctions;
    outbound.addConsumer(
      build('OutboundConsumerFunction', {
        ...outboundConsumer,
        timeout: outboundConsumerTimeout,
        // lambdas/handlers/outbound-consumer.ts: its backoff, and which receive is the last.
        environment: {
          OUTBOUND_MAX_RECEIVE_COUNT: String(config.outbound.maxReceiveCount),
          OUTBOUND_RETRY_BASE_SECONDS: String(config.outbound.retryBaseSeconds),
          // How many batches run at once: each keeps to the channel's rate divided by this.
          OUTBOUND_MAX_CONCURRENCY: String(config.outbound.maxConcurrency),
        },
      }),
    );
    const smsEventsFunction = build('SmsEventsFunction', {
      ...smsEvents,
      timeout: Duration.seconds(smsEvents.timeoutSeconds),
    });
    smsChannel?.addEventsConsumer(smsEventsFunction);
    const streamConsumer = build('ApplicationsStreamFunction', {
      ...applicationsStream,
      timeout: Duration.seconds(applicationsStream.timeoutSeconds),
    });
    const stream = new ApplicationsStream(this, 'ApplicationsStream', {
      config,
      alarms,
      applicationsTable: props.tables.applications,
      consumer: streamConsumer,
    });

    const ageingJob = build('RollupsAgeingFunction', {
      ...rollupsAgeing,
      timeout: Duration.seconds(rollupsAgeing.timeoutSeconds),
    });
    new DailyJob(this, 'RollupsAgeing', {
      config,
      alarms,
      job: ageingJob,
      does: 'ages the report rollups',
      alarm: {
        id: 'RollupsAgeingFailures',
        name: 'rollups-ageing-failed',
        description:
          "the daily rollups ageing job failed; reports stay exact (ages corrected on read) and the next run catches up. Read the job's log before tomorrow's run.",
      },
    });
    // Issue 21: what is kept past its period is erased daily (docs/PRODUCT.md, "Retention").
    const retentionJob = build('RetentionFunction', {
      ...retention,
      timeout: Duration.seconds(retention.timeoutSeconds),
      environment: {
        RETENTION_REJECTED_DAYS: String(config.retention.rejectedApplicationDays),
        RETENTION_CLOSED_GRIEVANCE_DAYS: String(config.retention.closedGrievanceDays),
      },
    });
    new DailyJob(this, 'Retention', {
      config,
      alarms,
      job: retentionJob,
      does: 'erases what is kept past its retention period',
      alarm: {
        id: 'RetentionFailures',
        name: 'retention-failed',
        description:
          "the daily retention job failed: applications past their retention period are kept a day longer. Read the job's log; the next run catches up.",
      },
    });
    // Issue 21: the retention job counts the open grievances due within 7 days (or overdue) every day.
    alarms.add('GrievancesDue', {
      name: 'grievances-due',
      description:
        'an open grievance is due within 7 days or overdue (the daily count, GrievancesDueSoon): answer it in the staff area (Grievances) before its due date.',
      runbook: 'grievances-due',
      metric: new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName: 'GrievancesDueSoon' satisfies MetricName,
        dimensionsMap: stageMetricDimensions(config.stage),
        statistic: cloudwatch.Stats.MAXIMUM,
        period: Duration.days(1),
      }),
      threshold: 1,
    });

    const web = new WebHosting(this, 'Web', {
      config,
      webAssetDir: props.webAssetDir,
      apiDomainName: api.domainName,
      userPoolId: props.userPool.userPoolId,
      userPoolClientId: props.spaClient.userPoolClientId,
      webAclArn: props.webAcl?.arn,
      originSecret: props.secrets.origin,
    });

    new Monitoring(this, 'Monitoring', {
      config,
      alarms,
      api,
      routes,
      functions,
      ownErrorAlarms: [ageingJob, retentionJob],
      streamConsumer,
      outboundQueue: outbound.queue,
      deadLetterQueues: [
        { label: 'Outbound dead letters', queue: outbound.deadLetterQueue },
        { label: 'Stream on-failure queue', queue: stream.failureQueue },
        ...(smsChannel ? [{ label: 'SMS events dead letters', queue: smsChannel.deadLetterQueue }] : []),
      ],
      webAclName: props.webAcl?.name,
    });

    acknowledgeCdkSingletonFunctions(this);

    new CfnOutput(this, 'SiteUrl', { value: web.siteUrl });
    new CfnOutput(this, 'ApiUrl', { value: `${web.siteUrl}/api`, description: 'The API, through CloudFront' });
    new CfnOutput(this, 'OutboundQueueUrl', { value: outbound.queue.queueUrl });
    // The preflight reads the topic's policy (may CloudWatch publish?) and its subscriptions.
    new CfnOutput(this, 'AlarmTopicArn', { value: alarms.topic.topicArn, description: 'Every alarm of the stage' });
    new CfnOutput(this, 'OutboundDeadLetterQueueUrl', { value: outbound.deadLetterQueue.queueUrl });
    new CfnOutput(this, 'SiteBucketName', { value: web.bucket.bucketName });
    new CfnOutput(this, 'DistributionId', { value: web.distribution.distributionId });
    if (smsChannel) {
      new CfnOutput(this, 'SmsConfigurationSetName', { value: smsChannel.configurationSetName });
      new CfnOutput(this, 'SmsEventsTopicArn', { value: smsChannel.topic.topicArn });
    }
  }
}
