import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { RouteDefinition } from '../api-routes';
import { METRICS_NAMESPACE, type MetricName, stageMetricDimensions } from '../../contracts/metric-definitions';
import { resourcePrefix, routeKey, type StageConfig } from '../stages';
import type { Alarms } from './alarms';
import { edgeRuleNames } from './edge-firewall';
import { type HttpApi, publicFlowRoutes } from './http-api';
import { type ProjectFunction, pascalCase } from './project-function';

export interface MonitoringProps {
  readonly config: StageConfig;
  readonly alarms: Alarms;
  readonly api: HttpApi;
  readonly routes: readonly RouteDefinition[];
  /** Every project function, by handler module. */
  readonly functions: ReadonlyMap<string, ProjectFunction>;
  /** Functions with an error alarm of their own (the daily ageing job). */
  readonly ownErrorAlarms: readonly ProjectFunction[];
  readonly streamConsumer: ProjectFunction;
  readonly outboundQueue: sqs.IQueue;
  readonly deadLetterQueues: readonly { readonly label: string; readonly queue: sqs.IQueue }[];
  /** The Edge stack's web ACL, when the stage has one. */
  readonly webAclName?: string;
}

const FIVE_MINUTES = Duration.minutes(5);
const FIFTEEN_MINUTES = Duration.minutes(15);

/** The channels a stage sends on (lib/stages.ts messaging). */
function stageChannels(config: StageConfig): ('whatsapp' | 'sms')[] {
  const { otpChannels, sms } = config.messaging;
  return [
    ...(otpChannels !== 'sms' ? (['whatsapp'] as const) : []),
    ...(otpChannels !== 'whatsapp' || sms ? (['sms'] as const) : []),
  ];
}

/**
 * The stage's health alarms and its dashboard. The funnel comes from the handlers'
 * embedded metrics (namespace Membership, per stage); health from API Gateway, Lambda,
 * SQS and, when on, WAF. Thresholds are the stage's (lib/stages.ts `alarms`).
 */
export class Monitoring extends Construct {
  public readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const { config, alarms, api } = props;
    const thresholds = config.alarms;
    const product = (metricName: MetricName, label?: string) =>
      new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName,
        dimensionsMap: stageMetricDimensions(config.stage),
        statistic: cloudwatch.Stats.SUM,
        period: FIVE_MINUTES,
        label,
      });

    // API 5xx rate: judged only with enough requests, so that one error at night is no incident.
    const apiRequests = api.api.metricCount({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.SUM });
    const apiServerErrors = api.api.metricServerError({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.SUM });
    const apiErrorRate = new cloudwatch.MathExpression({
      expression: `IF(FILL(requests, 0) >= ${thresholds.minRequests}, FILL(errors, 0) / requests, 0)`,
      usingMetrics: { errors: apiServerErrors, requests: apiRequests },
      period: FIVE_MINUTES,
      label: 'API 5xx share',
    });
    alarms.add('ApiServerErrorRate', {
      name: 'api-5xx-rate',
      description: `${pct(thresholds.apiServerErrorRate)} or more of API requests failed with 5xx over 5 minutes (with at least ${thresholds.minRequests} requests). Look first at the Lambda errors on the dashboard and at the failing function's log.`,
      runbook: 'api-errors',
      metric: apiErrorRate,
      threshold: thresholds.apiServerErrorRate,
    });

    // Every function's crashes, timeouts and throttles, one alarm each so the name says which.
    for (const [handler, fn] of props.functions) {
      if (!props.ownErrorAlarms.includes(fn)) {
        alarms.add(`${fn.node.id}Errors`, {
          name: `lambda-errors-${handler}`,
          description: `function ${handler} failed (crash or timeout) ${thresholds.lambdaErrors} or more times in 5 minutes. Read its log group for the error first.`,
          runbook: 'lambda-errors',
          metric: fn.function.metricErrors({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.SUM }),
          threshold: thresholds.lambdaErrors,
        });
      }
      alarms.add(`${fn.node.id}Throttles`, {
        name: `lambda-throttles-${handler}`,
        description: `function ${handler} was throttled ${thresholds.lambdaThrottles} or more times in 5 minutes: the account's concurrency is used up. Check the account's Lambda concurrency quota first.`,
        runbook: 'lambda-errors',
        metric: fn.function.metricThrottles({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.SUM }),
        threshold: thresholds.lambdaThrottles,
      });
    }

    // WhatsApp refusing codes: the share of failed sends, once there are enough sends.
    const sent = product('OtpSent', 'Codes sent');
    const sendFailed = product('OtpSendFailed', 'Codes WhatsApp refused');
    const whatsappFailureRate = new cloudwatch.MathExpression({
      expression: `IF(FILL(sent, 0) + FILL(failed, 0) >= ${thresholds.whatsappMinSends}, FILL(failed, 0) / (FILL(sent, 0) + FILL(failed, 0)), 0)`,
      usingMetrics: { sent, failed: sendFailed },
      period: FIVE_MINUTES,
      label: 'WhatsApp failure share',
    });
    alarms.add('WhatsappFailureRate', {
      name: 'whatsapp-failure-rate',
      description: `WhatsApp refused ${pct(thresholds.whatsappFailureRate)} or more of the codes sent in 5 minutes (with at least ${thresholds.whatsappMinSends} sends): visitors get no code. Check the reason dimension of OtpSendFailed and the provider secret (token, phone number id) first.`,
      runbook: 'whatsapp-refuses',
      metric: whatsappFailureRate,
      threshold: thresholds.whatsappFailureRate,
    });

    // p99 latency of each public step, judged with enough requests, three periods in a row.
    const flow = publicFlowRoutes(props.routes);
    for (const route of flow) {
      const latency = new cloudwatch.MathExpression({
        expression: `IF(FILL(requests, 0) >= ${thresholds.minRequests}, p99, 0)`,
        usingMetrics: {
          p99: api.routeMetric(route, 'Latency', { statistic: cloudwatch.Stats.p(99) }),
          requests: api.routeMetric(route, 'Count', { statistic: cloudwatch.Stats.SUM }),
        },
        period: FIVE_MINUTES,
        label: `${routeKey(route)} p99`,
      });
      alarms.add(`Latency${route.method}${pascalCase(route.path)}`, {
        name: `latency-p99-${route.handler}`,
        description: `p99 latency of ${routeKey(route)} stayed at ${thresholds.publicLatencyP99Ms} ms or more for 15 minutes (with at least ${thresholds.minRequests} requests per 5 minutes). Compare its function's duration on the dashboard (cold starts, slow provider or DynamoDB calls) and read its log first.`,
        runbook: 'latency',
        metric: latency,
        threshold: thresholds.publicLatencyP99Ms,
        evaluationPeriods: 3,
      });
    }

    // The stream consumer falling behind: reports lag by this much.
    const iteratorAge = props.streamConsumer.function.metric('IteratorAge', {
      period: FIVE_MINUTES,
      statistic: cloudwatch.Stats.MAXIMUM,
    });
    alarms.add('StreamIteratorAge', {
      name: 'stream-lag',
      description: `the applications stream consumer read records ${Math.round(thresholds.streamIteratorAgeSeconds / 60)} minutes old or older for 10 minutes: report totals lag behind. Check its errors and throttles, then its log, first.`,
      runbook: 'stream-lag',
      metric: iteratorAge,
      threshold: thresholds.streamIteratorAgeSeconds * 1000,
      evaluationPeriods: 2,
    });

    // Delivery rate per channel: what a provider reported delivered of what it accepted,
    // from the series that countBy publishes with the channel dimension.
    const byChannel = (metricName: MetricName, channel: string, period: Duration, label: string) =>
      new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName,
        dimensionsMap: { ...stageMetricDimensions(config.stage), channel },
        statistic: cloudwatch.Stats.SUM,
        period,
        label,
      });
    const channels = stageChannels(config);
    const deliveryRates = channels.map((channel) => {
      // Ids per channel: the dashboard draws both channels' expressions in one graph.
      const [accepted, delivered] = [`accepted_${channel}`, `delivered_${channel}`];
      const rate = new cloudwatch.MathExpression({
        expression: `IF(FILL(${accepted}, 0) >= ${thresholds.deliveryMinAccepted}, FILL(${delivered}, 0) / ${accepted}, 1)`,
        usingMetrics: {
          [accepted]: byChannel('MessageAccepted', channel, FIFTEEN_MINUTES, `${channel} accepted`),
          [delivered]: byChannel('MessageDelivered', channel, FIFTEEN_MINUTES, `${channel} delivered`),
        },
        period: FIFTEEN_MINUTES,
        label: `${channel} delivery rate`,
      });
      alarms.add(`DeliveryRate${pascalCase(channel)}`, {
        name: `delivery-rate-${channel}`,
        description: `${channel === 'sms' ? 'SMS' : 'WhatsApp'} reported fewer than ${pct(thresholds.deliveryRate)} of the messages it accepted as delivered over 15 minutes (with at least ${thresholds.deliveryMinAccepted} accepted): codes are not reaching phones. Look at MessageFailed by channel_code on the dashboard first.`,
        runbook: 'delivery-rate',
        metric: rate,
        threshold: thresholds.deliveryRate,
        comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
      });
      return rate;
    });

    // The WhatsApp messaging tier filling up: past it, new numbers go by SMS (or nowhere).
    const tier = config.messaging.whatsappTier;
    const uniqueRecipients = new cloudwatch.Metric({
      namespace: METRICS_NAMESPACE,
      metricName: 'WhatsAppUniqueRecipients24h',
      dimensionsMap: stageMetricDimensions(config.stage),
      statistic: cloudwatch.Stats.MAXIMUM,
      period: FIVE_MINUTES,
    });
    const tierThreshold = Math.ceil(tier.uniqueRecipientsPer24h * tier.alarmShare);
    if (channels.includes('whatsapp') && tier.uniqueRecipientsPer24h > 0) {
      alarms.add('WhatsappTier', {
        name: 'whatsapp-tier',
        description: `the unique WhatsApp recipients of the last 24 hours reached ${tierThreshold}, ${pct(tier.alarmShare)} of the messaging tier (${tier.uniqueRecipientsPer24h}): past the tier, codes to new numbers ${config.messaging.otpChannels === 'whatsapp-then-sms' ? 'go by SMS' : 'fail'}. Check the tier in WhatsApp Manager first.`,
        runbook: 'whatsapp-tier',
        metric: uniqueRecipients,
        threshold: tierThreshold,
      });
    }

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: resourcePrefix(config),
      defaultInterval: Duration.days(1),
    });
    const functions = [...props.functions.entries()];
    const perFunction = (metric: (fn: ProjectFunction) => cloudwatch.IMetric) => functions.map(([, fn]) => metric(fn));
    const graph = (title: string, left: cloudwatch.IMetric[], extra: Partial<cloudwatch.GraphWidgetProps> = {}) =>
      new cloudwatch.GraphWidget({ title, left, width: 8, height: 6, ...extra });

    this.dashboard.addWidgets(
      new cloudwatch.TextWidget({
        markdown: `# Membership ${config.stage}\nThe funnel from the handlers' metrics, then the health of API, functions, queues${props.webAclName ? ' and the edge firewall' : ''}. What each alarm means: [runbook](${config.alarms.runbookUrl}).`,
        width: 24,
        height: 2,
      }),
    );
    this.dashboard.addWidgets(
      new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: alarms.all, width: 24, height: 4 }),
    );
    this.dashboard.addWidgets(
      graph('Funnel: codes sent, verified, applications', [
        sent,
        product('OtpVerified', 'Numbers verified'),
        product('ApplicationSubmitted', 'Applications'),
      ]),
      new cloudwatch.SingleValueWidget({
        title: 'Funnel over the period',
        metrics: [sent, product('OtpVerified', 'Verified'), product('ApplicationSubmitted', 'Applications')],
        setPeriodToTimeRange: true,
        width: 8,
        height: 6,
      }),
      graph('Refusals', [
        sendFailed,
        product('OtpRejected', 'Wrong or expired codes'),
        product('CaptchaRejected', 'Captcha refused'),
        product('RateLimited', 'Rate limited'),
      ]),
    );
    this.dashboard.addWidgets(
      graph('WhatsApp failure share', [whatsappFailureRate], {
        leftAnnotations: [{ value: thresholds.whatsappFailureRate, label: 'alarm' }],
      }),
      graph('Outbound messages (welcome, webhook)', [
        product('OutboundDelivered', 'Delivered'),
        product('OutboundFailed', 'Failed'),
        product('OutboundRetried', 'Retried later'),
        product('OutboundDeadLettered', 'Given up (dead letters)'),
      ]),
      graph('API requests and errors', [
        apiRequests.with({ label: 'Requests' }),
        api.api.metricClientError({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.SUM, label: '4xx' }),
        apiServerErrors.with({ label: '5xx' }),
      ]),
    );
    const search = (metricName: MetricName, dimension: string, label: string) =>
      new cloudwatch.MathExpression({
        expression: `SEARCH('{${METRICS_NAMESPACE},${dimension},service,stage} MetricName="${metricName}" stage="${config.stage}"', 'Sum', 300)`,
        usingMetrics: {},
        period: FIVE_MINUTES,
        label,
      });
    this.dashboard.addWidgets(
      graph(
        'Messages by channel: accepted, delivered',
        channels.flatMap((channel) => [
          byChannel('MessageAccepted', channel, FIVE_MINUTES, `${channel} accepted`),
          byChannel('MessageDelivered', channel, FIVE_MINUTES, `${channel} delivered`),
        ]),
      ),
      graph('Delivery rate by channel (15 min)', deliveryRates, {
        leftAnnotations: [{ value: thresholds.deliveryRate, label: 'alarm' }],
        leftYAxis: { min: 0, max: 1 },
      }),
      graph('Failures by provider code', [
        product('MessageFailed', 'Failed (all)'),
        search('MessageFailed', 'channel_code', 'Failed by channel:code'),
      ]),
    );
    this.dashboard.addWidgets(
      graph('Codes that fell back to SMS', [
        product('OtpFellBackToSms', 'Fell back (all)'),
        search('OtpFellBackToSms', 'reason', 'By reason'),
      ]),
      graph('WhatsApp unique recipients (24 h) and the tier', [uniqueRecipients.with({ label: 'Unique recipients' })], {
        leftAnnotations:
          tier.uniqueRecipientsPer24h > 0
            ? [
                { value: tier.uniqueRecipientsPer24h, label: 'tier' },
                { value: tierThreshold, label: 'alarm' },
              ]
            : [],
      }),
      graph('Decision notices and throttled sends', [
        product('DecisionNoticeSent', 'Decision notices (all)'),
        ...channels.map((channel) =>
          byChannel('DecisionNoticeSent', channel, FIVE_MINUTES, `Decision notices by ${channel}`),
        ),
        product('OutboundThrottled', 'Sends put back (provider rate limit)'),
      ]),
    );
    this.dashboard.addWidgets(
      graph('API latency', [
        api.api.metricLatency({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.p(50), label: 'p50' }),
        api.api.metricLatency({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.p(99), label: 'p99' }),
      ]),
      graph(
        'Public steps, p99 latency',
        flow.map((route) =>
          api.routeMetric(route, 'Latency', { statistic: cloudwatch.Stats.p(99), label: routeKey(route) }),
        ),
        { leftAnnotations: [{ value: thresholds.publicLatencyP99Ms, label: 'alarm' }] },
      ),
      graph('API 5xx share', [apiErrorRate], {
        leftAnnotations: [{ value: thresholds.apiServerErrorRate, label: 'alarm' }],
      }),
    );
    this.dashboard.addWidgets(
      graph(
        'Function errors',
        perFunction((fn) => fn.function.metricErrors({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.SUM })),
      ),
      graph(
        'Function throttles',
        perFunction((fn) => fn.function.metricThrottles({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.SUM })),
      ),
      graph(
        'Function duration, p99',
        perFunction((fn) => fn.function.metricDuration({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.p(99) })),
      ),
    );
    this.dashboard.addWidgets(
      graph('Outbound queue', [
        props.outboundQueue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, label: 'Waiting' }),
        props.outboundQueue.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES, label: 'Oldest (s)' }),
      ]),
      graph(
        'Dead letters',
        props.deadLetterQueues.map(({ label, queue }) =>
          queue.metricApproximateNumberOfMessagesVisible({
            period: FIVE_MINUTES,
            statistic: cloudwatch.Stats.MAXIMUM,
            label,
          }),
        ),
      ),
      graph('Applications stream lag (ms)', [iteratorAge], {
        leftAnnotations: [{ value: thresholds.streamIteratorAgeSeconds * 1000, label: 'alarm' }],
      }),
    );
    if (props.webAclName) {
      // CloudFront's web ACL reports in us-east-1; a dashboard reads any region.
      const blocked = (rule: string, label: string) =>
        new cloudwatch.Metric({
          namespace: 'AWS/WAFV2',
          metricName: 'BlockedRequests',
          dimensionsMap: { WebACL: props.webAclName!, Rule: rule },
          region: 'us-east-1',
          statistic: cloudwatch.Stats.SUM,
          period: FIVE_MINUTES,
          label,
        });
      this.dashboard.addWidgets(
        graph(
          'Edge firewall: blocked requests',
          [
            blocked(edgeRuleNames.otpRequestRate, 'Code requests over the rate'),
            blocked(edgeRuleNames.common, 'Core rule set'),
            blocked(edgeRuleNames.sizeOutsideStaff, 'Too large'),
            blocked(edgeRuleNames.knownBadInputs, 'Known bad inputs'),
          ],
          { width: 24 },
        ),
      );
    }
  }
}

const pct = (share: number) => `${Math.round(share * 1000) / 10} %`;
