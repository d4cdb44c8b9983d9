import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { routes } from '../../lib/api-routes';
import { EDGE_REGION, addMembershipStacks, addNagChecks, stackNames } from '../../lib/constructs/membership-stacks';
import { projectRoot } from '../../lib/constructs/project-function';
import { edgeRuleNames } from '../../lib/constructs/edge-firewall';
import { publicFlowRoutes } from '../../lib/constructs/http-api';
import { backgroundFunctions } from '../../lib/functions';
import { METRICS_NAMESPACE, metricNames, stageMetricDimensions } from '../../contracts/metric-definitions';
import { type StageConfig, loadStageConfig, routeKey, stageConfigSchema, stageConfigs } from '../../lib/stages';

// Issue 8, the CDK side: stage settings, alarms, the dashboard, the edge firewall and the
// per-route throttles, read from one synthesis of dev and prod side by side (bundling
// skipped: the code is not the point here; cdk-nag on, as `cdk synth` runs it).

type Json = Record<string, unknown>;
interface Resource {
  readonly Type: string;
  readonly Properties: Json;
  readonly DependsOn?: string[];
}
interface TemplateJson {
  readonly Resources: Record<string, Resource>;
}
interface ValidationReport {
  readonly pluginReports: {
    pluginName: string;
    violations: { ruleName: string; severity: string; violatingConstructs?: { constructPath?: string }[] }[];
  }[];
}

const runbookSections = [
  'dead-letters',
  'api-errors',
  'lambda-errors',
  'whatsapp-refuses',
  'latency',
  'stream-lag',
  'delivery-rate',
  'whatsapp-tier',
  'grievances-due',
];

let workDir: string;
let report: ValidationReport;
const templates = new Map<string, TemplateJson>();
const regions = new Map<string, string>();
const config = { dev: loadStageConfig('dev'), prod: loadStageConfig('prod') } as const;
type Stage = keyof typeof config;

beforeAll(() => {
  workDir = mkdtempSync(path.join(tmpdir(), 'membership-operations-'));
  const web = path.join(workDir, 'web');
  mkdirSync(web, { recursive: true });
  writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>test</title>');
  const outdir = path.join(workDir, 'cdk.out');
  const app = new App({
    outdir,
    context: { 'aws:cdk:bundling-stacks': [], '@aws-cdk/core:failSynthOnValidationErrors': false },
  });
  for (const stage of ['dev', 'prod'] as const) addMembershipStacks(app, config[stage], web);
  addNagChecks(app);
  const assembly = app.synth();
  for (const stack of assembly.stacks) {
    templates.set(stack.stackName, stack.template as TemplateJson);
    regions.set(stack.stackName, stack.environment.region);
  }
  report = JSON.parse(readFileSync(path.join(outdir, 'validation-report.json'), 'utf8')) as ValidationReport;
});

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

const template = (stage: Stage, part: 'data' | 'app' | 'edge') => templates.get(stackNames({ stage })[part]);
const appOf = (stage: Stage) => template(stage, 'app')!;
const ofType = (t: TemplateJson, type: string) => Object.entries(t.Resources).filter(([, r]) => r.Type === type);
const single = (t: TemplateJson, type: string) => {
  const found = ofType(t, type);
  expect(found, type).toHaveLength(1);
  return found[0]!;
};

/** Project functions (not CDK's helpers) carry STAGE; their logical ids start with `<Handler>Function`. */
const projectFunctions = (stage: Stage) =>
  ofType(appOf(stage), 'AWS::Lambda::Function').filter(
    ([, r]) => ((r.Properties.Environment as Json | undefined)?.Variables as Json | undefined)?.STAGE !== undefined,
  );
const handlers = [
  ...new Set([...routes.map((r) => r.handler), ...Object.values(backgroundFunctions).map((f) => f.handler)]),
];
const functionId = (stage: Stage, handler: string) => {
  const pascal = handler
    .split('-')
    .map((p) => p[0]!.toUpperCase() + p.slice(1))
    .join('');
  const found = projectFunctions(stage).find(([id]) => new RegExp(`^${pascal}Function[0-9A-F]{8}$`).test(id));
  if (!found) throw new Error(`no function for ${handler}`);
  return found[0];
};

const alarms = (stage: Stage) =>
  new Map(
    ofType(appOf(stage), 'AWS::CloudWatch::Alarm').map(([, r]) => [String(r.Properties.AlarmName), r.Properties]),
  );
const alarm = (stage: Stage, name: string) => {
  const found = alarms(stage).get(`membership-${stage}-${name}`);
  if (!found) throw new Error(`no alarm ${name} in ${stage}: ${[...alarms(stage).keys()].join(', ')}`);
  return found;
};
/** The metric queries of a metric-math alarm, by id. */
const queries = (props: Json) => new Map((props.Metrics as Json[]).map((q) => [String(q.Id), q]));
const metricOf = (query: Json | undefined) => (query?.MetricStat as Json).Metric as Json;
const dimensionsOf = (metric: Json) =>
  Object.fromEntries((metric.Dimensions as { Name: string; Value: unknown }[]).map((d) => [d.Name, d.Value]));

describe('stage configuration (lib/stages.ts)', () => {
  it('fills the new settings with defaults when a stage leaves them out', () => {
    const input: Json = {
      ...stageConfigs.dev,
      api: { throttleRateLimit: 10, throttleBurstLimit: 20 },
      outbound: { maxReceiveCount: 5 },
    };
    for (const key of ['alarms', 'waf', 'tracing']) delete input[key];
    const parsed = stageConfigSchema.parse(input);
    expect(parsed.waf).toEqual({ enabled: false, otpRequestLimit: 300, otpRequestWindowSeconds: 300 });
    expect(parsed.tracing).toBe(true);
    expect(parsed.api.routeThrottles).toEqual({});
    expect(parsed.alarms).toMatchObject({ apiServerErrorRate: 0.05, runbookUrl: 'docs/RUNBOOK.md' });
    expect(parsed.outbound).toEqual({ maxReceiveCount: 5, retryBaseSeconds: 60, maxConcurrency: 5 });
    expect(parsed.api.reservedConcurrency).toEqual({});
  });

  it('refuses a route throttle for a route that does not exist, or looser than the stage-wide one', () => {
    const api = (routeThrottles: Json) => ({
      ...stageConfigs.dev,
      api: { throttleRateLimit: 20, throttleBurstLimit: 40, routeThrottles },
    });
    expect(
      stageConfigSchema.safeParse(api({ 'POST /api/otp/request': { rateLimit: 5, burstLimit: 10 } })).success,
    ).toBe(true);
    expect(stageConfigSchema.safeParse(api({ 'POST /api/otp/send': { rateLimit: 5, burstLimit: 10 } })).success).toBe(
      false,
    );
    expect(
      stageConfigSchema.safeParse(api({ 'POST /api/otp/request': { rateLimit: 50, burstLimit: 10 } })).success,
    ).toBe(false);
    expect(
      stageConfigSchema.safeParse(api({ 'POST /api/otp/request': { rateLimit: 5, burstLimit: 80 } })).success,
    ).toBe(false);
  });

  it('has the firewall on in prod and off in dev, and limits on every public POST route in every stage', () => {
    expect(config.prod.waf.enabled).toBe(true);
    expect(config.dev.waf.enabled).toBe(false);
    const publicPosts = routes.filter((r) => r.access === 'public' && r.method === 'POST').map(routeKey);
    // The visitor's steps and Meta's webhook.
    expect(publicPosts).toEqual(
      expect.arrayContaining([...publicFlowRoutes(routes).map(routeKey), 'POST /api/whatsapp/webhook']),
    );
    for (const stage of ['dev', 'prod'] as const) {
      const keys = Object.keys(config[stage].api.routeThrottles).sort();
      expect(keys, stage).toEqual(publicPosts.sort());
    }
  });
});

describe('per-route API throttles', () => {
  it.each(['dev', 'prod'] as const)(
    '%s: limits each public step from the stage config, beside the stage-wide default',
    (stage) => {
      const [, apiStage] = single(appOf(stage), 'AWS::ApiGatewayV2::Stage');
      const c: StageConfig = config[stage];
      expect(apiStage.Properties.DefaultRouteSettings).toMatchObject({
        ThrottlingRateLimit: c.api.throttleRateLimit,
        ThrottlingBurstLimit: c.api.throttleBurstLimit,
      });
      const settings = apiStage.Properties.RouteSettings as Record<string, Json>;
      for (const [key, limit] of Object.entries(c.api.routeThrottles)) {
        expect(settings[key], key).toMatchObject({
          ThrottlingRateLimit: limit.rateLimit,
          ThrottlingBurstLimit: limit.burstLimit,
        });
        // HTTP APIs apply the default to each route on its own: a route limit above it would never apply.
        expect(limit.rateLimit).toBeLessThanOrEqual(c.api.throttleRateLimit);
        expect(limit.burstLimit).toBeLessThanOrEqual(c.api.throttleBurstLimit);
      }
      // API Gateway refuses settings for a route it does not have yet: the stage waits for them.
      const routeIds = ofType(appOf(stage), 'AWS::ApiGatewayV2::Route')
        .filter(([, r]) => Object.keys(settings).includes(String(r.Properties.RouteKey)))
        .map(([id]) => id);
      expect(routeIds).toHaveLength(Object.keys(settings).length);
      for (const id of routeIds) expect(apiStage.DependsOn, id).toContain(id);
    },
  );

  it('turns on route metrics for the public steps only (their latency alarms read them)', () => {
    const [, apiStage] = single(appOf('prod'), 'AWS::ApiGatewayV2::Stage');
    const settings = apiStage.Properties.RouteSettings as Record<string, Json>;
    const metered = Object.entries(settings)
      .filter(([, s]) => s.DetailedMetricsEnabled === true)
      .map(([key]) => key);
    expect(metered.sort()).toEqual([
      'POST /api/applications',
      'POST /api/card',
      'POST /api/card/mine',
      'POST /api/card/status',
      'POST /api/grievances',
      'POST /api/grievances/answer',
      'POST /api/me',
      'POST /api/me/correct',
      'POST /api/me/grievances',
      'POST /api/me/withdraw',
      'POST /api/otp/request',
      'POST /api/otp/status',
      'POST /api/otp/verify',
    ]);
  });
});

describe('tracing', () => {
  it('traces every project function with X-Ray', () => {
    expect(projectFunctions('prod')).toHaveLength(handlers.length);
    for (const [id, fn] of projectFunctions('prod'))
      expect(fn.Properties.TracingConfig, id).toEqual({ Mode: 'Active' });
  });

  it('tells the outbound consumer the queue retry count of the stage', () => {
    const id = functionId('prod', backgroundFunctions.outboundConsumer.handler);
    const env = (appOf('prod').Resources[id]!.Properties.Environment as Json).Variables as Json;
    expect(env).toMatchObject({
      OUTBOUND_MAX_RECEIVE_COUNT: String(config.prod.outbound.maxReceiveCount),
      OUTBOUND_RETRY_BASE_SECONDS: String(config.prod.outbound.retryBaseSeconds),
    });
    const [, queue] = ofType(appOf('prod'), 'AWS::SQS::Queue').find(([, q]) => q.Properties.RedrivePolicy)!;
    expect(queue.Properties.RedrivePolicy).toMatchObject({ maxReceiveCount: config.prod.outbound.maxReceiveCount });
  });
});

describe('alarms', () => {
  it.each(['dev', 'prod'] as const)(
    '%s: every alarm goes to the topic, carries its stage, and links its runbook section',
    (stage) => {
      // The alarm topic (the SMS events topic is the other).
      const [topicId] = ofType(appOf(stage), 'AWS::SNS::Topic').find(([id]) => id.startsWith('AlarmsTopic'))!;
      const all = alarms(stage);
      expect(all.size).toBeGreaterThan(2 * handlers.length);
      for (const [name, props] of all) {
        expect(name).toMatch(new RegExp(`^membership-${stage}-[a-z0-9-]+$`));
        expect(props.AlarmActions, name).toEqual([{ Ref: topicId }]);
        expect(props.OKActions, name).toEqual([{ Ref: topicId }]);
        expect(props.TreatMissingData, name).toBe('notBreaching');
        const description = String(props.AlarmDescription);
        expect(description, name).toMatch(new RegExp(`^Membership ${stage}: `));
        const link = /Runbook: docs\/RUNBOOK\.md#([a-z-]+)$/.exec(description);
        expect(runbookSections, name).toContain(link?.[1]);
        expect(description.length, name).toBeLessThanOrEqual(1024);
      }
    },
  );

  it('mails the topic to the stage address when one is configured', () => {
    const subscriptions = ofType(appOf('prod'), 'AWS::SNS::Subscription').filter(
      ([, s]) => s.Properties.Protocol !== 'lambda',
    );
    if (config.prod.alarmEmail) {
      expect(subscriptions.map(([, s]) => s.Properties)).toContainEqual(
        expect.objectContaining({ Protocol: 'email', Endpoint: config.prod.alarmEmail }),
      );
    } else {
      expect(subscriptions).toEqual([]);
    }
  });

  it('alarms on anything in either dead-letter queue', () => {
    for (const name of ['outbound-dead-letters', 'stream-dead-letters']) {
      expect(alarm('prod', name)).toMatchObject({
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      });
      expect(String(alarm('prod', name).AlarmDescription)).toContain('#dead-letters');
    }
  });

  it('alarms on the API 5xx share, judged only with traffic', () => {
    const [apiId] = single(appOf('prod'), 'AWS::ApiGatewayV2::Api');
    const props = alarm('prod', 'api-5xx-rate');
    expect(props.Threshold).toBe(config.prod.alarms.apiServerErrorRate);
    expect(String(props.AlarmDescription)).toContain('#api-errors');
    const q = queries(props);
    const expression = [...q.values()].find((m) => m.Expression)!;
    expect(expression.Expression).toBe(
      `IF(FILL(requests, 0) >= ${config.prod.alarms.minRequests}, FILL(errors, 0) / requests, 0)`,
    );
    expect(metricOf(q.get('errors'))).toMatchObject({ Namespace: 'AWS/ApiGateway', MetricName: '5xx' });
    expect(metricOf(q.get('requests'))).toMatchObject({ Namespace: 'AWS/ApiGateway', MetricName: 'Count' });
    for (const id of ['errors', 'requests']) {
      expect(dimensionsOf(metricOf(q.get(id))), id).toEqual({ ApiId: { Ref: apiId } });
      expect(q.get(id)!.MetricStat, id).toMatchObject({ Stat: 'Sum', Period: 300 });
    }
  });

  it('alarms on errors and throttles of every function, the daily jobs keeping their own error alarms', () => {
    for (const handler of handlers) {
      const fnId = functionId('prod', handler);
      const throttles = alarm('prod', `lambda-throttles-${handler}`);
      expect(throttles, handler).toMatchObject({
        Namespace: 'AWS/Lambda',
        MetricName: 'Throttles',
        Dimensions: [{ Name: 'FunctionName', Value: { Ref: fnId } }],
        Threshold: config.prod.alarms.lambdaThrottles,
      });
      const errors = alarms('prod').get(`membership-prod-lambda-errors-${handler}`);
      // The daily jobs alarm on their own, over an hour (lib/constructs/daily-job.ts).
      const dailyAlarm = {
        [backgroundFunctions.rollupsAgeing.handler]: 'rollups-ageing-failed',
        [backgroundFunctions.retention.handler]: 'retention-failed',
      }[handler];
      if (dailyAlarm) {
        expect(errors).toBeUndefined();
        expect(alarm('prod', dailyAlarm)).toMatchObject({
          MetricName: 'Errors',
          Dimensions: [{ Name: 'FunctionName', Value: { Ref: fnId } }],
          Period: 3600,
        });
      } else {
        expect(errors, handler).toMatchObject({
          Namespace: 'AWS/Lambda',
          MetricName: 'Errors',
          Dimensions: [{ Name: 'FunctionName', Value: { Ref: fnId } }],
          Statistic: 'Sum',
          Threshold: config.prod.alarms.lambdaErrors,
        });
      }
    }
  });

  it('alarms on the WhatsApp failure share over the embedded metrics, only when codes are sent', () => {
    const props = alarm('prod', 'whatsapp-failure-rate');
    expect(props.Threshold).toBe(config.prod.alarms.whatsappFailureRate);
    expect(String(props.AlarmDescription)).toContain('#whatsapp-refuses');
    const q = queries(props);
    const min = config.prod.alarms.whatsappMinSends;
    expect([...q.values()].find((m) => m.Expression)!.Expression).toBe(
      `IF(FILL(sent, 0) + FILL(failed, 0) >= ${min}, FILL(failed, 0) / (FILL(sent, 0) + FILL(failed, 0)), 0)`,
    );
    for (const [id, name] of [
      ['sent', 'OtpSent'],
      ['failed', 'OtpSendFailed'],
    ] as const) {
      const metric = metricOf(q.get(id));
      expect(metric, id).toMatchObject({ Namespace: METRICS_NAMESPACE, MetricName: name });
      expect(dimensionsOf(metric), id).toEqual(stageMetricDimensions('prod'));
    }
  });

  it('alarms on the p99 latency of each public step, three periods in a row, only with traffic', () => {
    const [apiId] = single(appOf('prod'), 'AWS::ApiGatewayV2::Api');
    const flow = publicFlowRoutes(routes);
    expect(flow.map(routeKey).sort()).toEqual([
      'POST /api/applications',
      'POST /api/card',
      'POST /api/card/mine',
      'POST /api/card/status',
      'POST /api/grievances',
      'POST /api/grievances/answer',
      'POST /api/me',
      'POST /api/me/correct',
      'POST /api/me/grievances',
      'POST /api/me/withdraw',
      'POST /api/otp/request',
      'POST /api/otp/status',
      'POST /api/otp/verify',
    ]);
    for (const route of flow) {
      const props = alarm('prod', `latency-p99-${route.handler}`);
      expect(props, route.path).toMatchObject({
        Threshold: config.prod.alarms.publicLatencyP99Ms,
        EvaluationPeriods: 3,
        DatapointsToAlarm: 3,
      });
      const q = queries(props);
      expect([...q.values()].find((m) => m.Expression)!.Expression).toBe(
        `IF(FILL(requests, 0) >= ${config.prod.alarms.minRequests}, p99, 0)`,
      );
      expect(q.get('p99')!.MetricStat).toMatchObject({ Stat: 'p99', Period: 300 });
      for (const id of ['p99', 'requests']) {
        expect(metricOf(q.get(id)), id).toMatchObject({
          Namespace: 'AWS/ApiGateway',
          MetricName: id === 'p99' ? 'Latency' : 'Count',
        });
        expect(dimensionsOf(metricOf(q.get(id))), id).toEqual({
          ApiId: { Ref: apiId },
          Stage: '$default',
          Method: route.method,
          Resource: route.path,
        });
      }
    }
  });

  it('alarms on a grievance due within 7 days, from the daily count the retention job publishes', () => {
    for (const stage of ['dev', 'prod'] as const) {
      expect(alarm(stage, 'grievances-due')).toMatchObject({
        Namespace: METRICS_NAMESPACE,
        MetricName: 'GrievancesDueSoon',
        Dimensions: Object.entries(stageMetricDimensions(stage)).map(([Name, Value]) => ({ Name, Value })),
        Statistic: 'Maximum',
        Period: 86_400,
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      });
    }
    const [, job] = ofType(appOf('prod'), 'AWS::Lambda::Function').find(
      ([id]) => id === functionId('prod', backgroundFunctions.retention.handler),
    )!;
    expect((job.Properties.Environment as { Variables: Json }).Variables).toMatchObject({
      RETENTION_CLOSED_GRIEVANCE_DAYS: String(config.prod.retention.closedGrievanceDays),
    });
  });

  it("alarms when the applications stream consumer's iterator age passes the stage threshold", () => {
    expect(alarm('prod', 'stream-lag')).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'IteratorAge',
      Dimensions: [
        { Name: 'FunctionName', Value: { Ref: functionId('prod', backgroundFunctions.applicationsStream.handler) } },
      ],
      Statistic: 'Maximum',
      Threshold: config.prod.alarms.streamIteratorAgeSeconds * 1000,
    });
  });
});

/** The dashboard's body with CloudFormation references as `REF:<id>` strings. */
function dashboardBody(stage: Stage): { widgets: { type: string; properties: Json }[] } {
  const [, dashboard] = single(appOf(stage), 'AWS::CloudWatch::Dashboard');
  const body = dashboard.Properties.DashboardBody as { 'Fn::Join': [string, unknown[]] } | string;
  const text =
    typeof body === 'string'
      ? body
      : body['Fn::Join'][1]
          .map((part) => (typeof part === 'string' ? part : `REF:${JSON.stringify(part).replace(/"/g, "'")}`))
          .join('');
  return JSON.parse(text) as { widgets: { type: string; properties: Json }[] };
}

/** Every metric a widget draws: [namespace, name, { dimensions }]. */
function dashboardMetrics(stage: Stage): { namespace: string; name: string; dimensions: Record<string, string> }[] {
  return dashboardBody(stage).widgets.flatMap((widget) =>
    ((widget.properties.metrics as unknown[][] | undefined) ?? []).flatMap((row) => {
      const plain = row.filter((cell): cell is string => typeof cell === 'string');
      if (plain.length < 2 || plain[0] === '...') return [];
      const [namespace, name, ...pairs] = plain;
      const dimensions: Record<string, string> = {};
      for (let i = 0; i + 1 < pairs.length; i += 2) dimensions[pairs[i]!] = pairs[i + 1]!;
      return [{ namespace: namespace!, name: name!, dimensions }];
    }),
  );
}

describe('dashboard', () => {
  it('exists once per stage, named for its stage', () => {
    for (const stage of ['dev', 'prod'] as const) {
      const [, dashboard] = single(appOf(stage), 'AWS::CloudWatch::Dashboard');
      expect(dashboard.Properties.DashboardName).toBe(`membership-${stage}`);
    }
  });

  it.each(['dev', 'prod'] as const)('%s: shows the funnel from the embedded metrics of its own stage', (stage) => {
    const product = dashboardMetrics(stage).filter((m) => m.namespace === METRICS_NAMESPACE);
    for (const name of [
      'OtpSent',
      'OtpVerified',
      'ApplicationSubmitted',
      'OtpSendFailed',
      'OtpRejected',
      'CaptchaRejected',
      'RateLimited',
      'OutboundDelivered',
      'OutboundFailed',
    ]) {
      const drawn = product.filter((m) => m.name === name);
      expect(drawn.length, name).toBeGreaterThan(0);
      for (const m of drawn) expect(m.dimensions, name).toEqual(stageMetricDimensions(stage));
    }
  });

  it('shows the health of API, functions, queues and stream', () => {
    const drawn = dashboardMetrics('prod');
    const has = (namespace: string, name: string) => drawn.filter((m) => m.namespace === namespace && m.name === name);
    for (const name of ['4xx', '5xx', 'Count', 'Latency'])
      expect(has('AWS/ApiGateway', name).length, name).toBeGreaterThan(0);
    for (const name of ['Errors', 'Throttles', 'Duration'])
      expect(has('AWS/Lambda', name), name).toHaveLength(handlers.length);
    expect(has('AWS/Lambda', 'IteratorAge')).toHaveLength(1);
    // Outbound waiting, and the three dead-letter queues (outbound, stream, SMS events).
    expect(has('AWS/SQS', 'ApproximateNumberOfMessagesVisible')).toHaveLength(4);
    const body = dashboardBody('prod');
    const statusWidget = body.widgets.find((w) => w.type === 'alarm')!;
    expect((statusWidget.properties.alarms as unknown[]).length).toBe(alarms('prod').size);
  });

  it('shows what the edge firewall blocks where there is one (in us-east-1)', () => {
    const waf = (stage: Stage) => dashboardMetrics(stage).filter((m) => m.namespace === 'AWS/WAFV2');
    expect(waf('dev')).toEqual([]);
    expect(
      waf('prod')
        .map((m) => m.dimensions.Rule)
        .sort(),
    ).toEqual(Object.values(edgeRuleNames).sort());
    for (const m of waf('prod')) expect(m.dimensions.WebACL).toBe('membership-prod-edge');
    const widget = dashboardBody('prod').widgets.find((w) => JSON.stringify(w).includes('AWS/WAFV2'))!;
    expect(JSON.stringify(widget)).toContain(`"region":"${EDGE_REGION}"`);
  });

  it('reads the product metrics under exactly the dimensions the handlers publish them with', async () => {
    // The list the CDK reads is the list the handlers publish.
    const published = await import('../../lambdas/lib/metrics');
    expect([...metricNames].sort()).toEqual([...published.metricNames].sort());

    // How the functions publish each metric (count or countBy, and countBy's dimension),
    // from their source: handlers and the modules they share.
    const sources = ['handlers', 'lib', 'adapters'].flatMap((dir) =>
      readdirSync(path.join(projectRoot, 'lambdas', dir))
        .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !(dir === 'lib' && f === 'metrics.ts'))
        .map((f) => readFileSync(path.join(projectRoot, 'lambdas', dir, f), 'utf8')),
    );
    const calls = new Map<string, Set<'count' | 'countBy'>>();
    const dimensionsOfName = new Map<string, Set<string>>();
    for (const source of sources) {
      // The first argument: a name, or a choice of names (`failed ? 'A' : 'B'`).
      for (const [, fn, firstArgument] of source.matchAll(/\b(countBy|count)\(([^,)]*)/g)) {
        for (const [, name] of firstArgument!.matchAll(/'(\w+)'/g)) {
          calls.set(name!, (calls.get(name!) ?? new Set()).add(fn as 'count' | 'countBy'));
        }
      }
      for (const [, name, dimension] of source.matchAll(/\bcountBy\(\s*'(\w+)',\s*'(\w+)'/g)) {
        dimensionsOfName.set(name!, (dimensionsOfName.get(name!) ?? new Set()).add(dimension!));
      }
    }
    // Series read with a dimension beside the stage's (delivery per channel): published by
    // countBy with exactly that dimension.
    const dimensioned = dashboardMetrics('prod').filter(
      (m) => m.namespace === METRICS_NAMESPACE && Object.keys(m.dimensions).length > 2,
    );
    expect(dimensioned.length).toBeGreaterThan(0);
    for (const m of dimensioned) {
      const extra = Object.keys(m.dimensions).filter((d) => !(d in stageMetricDimensions('prod')));
      for (const dimension of extra)
        expect(dimensionsOfName.get(m.name), `${m.name} by ${dimension}`).toContain(dimension);
    }
    const read = [
      ...new Set(
        dashboardMetrics('prod')
          .filter((m) => m.namespace === METRICS_NAMESPACE)
          .map((m) => m.name),
      ),
    ];
    expect(read.length).toBeGreaterThan(0);

    vi.resetModules();
    vi.stubEnv('STAGE', 'prod');
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    const lines: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      const { count, countBy, flushMetrics } = await import('../../lambdas/lib/metrics');
      for (const name of read) {
        const ways = calls.get(name);
        expect(ways, `${name} is published by a handler`).toBeDefined();
        for (const way of ways!) {
          lines.length = 0;
          if (way === 'count') count(name as never);
          else countBy(name as never, 'reason', 'x');
          flushMetrics();
          const sets = lines
            .map(
              (line) =>
                JSON.parse(line) as {
                  _aws?: { CloudWatchMetrics: { Dimensions: string[][]; Metrics: { Name: string }[] }[] };
                  [k: string]: unknown;
                },
            )
            .filter((line) => line._aws?.CloudWatchMetrics[0]!.Metrics.some((m) => m.Name === name))
            .flatMap((line) =>
              line._aws!.CloudWatchMetrics[0]!.Dimensions.map((set) =>
                Object.fromEntries(set.map((d) => [d, line[d]])),
              ),
            );
          expect(sets, `${name} by ${way}`).toContainEqual(stageMetricDimensions('prod'));
        }
      }
    } finally {
      write.mockRestore();
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });
});

describe('edge firewall', () => {
  const webAcl = () => single(template('prod', 'edge')!, 'AWS::WAFv2::WebACL');
  const rule = (name: string) => {
    const rules = webAcl()[1].Properties.Rules as Json[];
    const found = rules.find((r) => r.Name === name);
    if (!found) throw new Error(`no rule ${name}`);
    return found;
  };

  it('is off in dev: no edge stack, no web ACL, no ACL on the distribution', () => {
    expect(template('dev', 'edge')).toBeUndefined();
    for (const part of ['data', 'app'] as const)
      expect(ofType(template('dev', part)!, 'AWS::WAFv2::WebACL')).toEqual([]);
    const [, distribution] = single(appOf('dev'), 'AWS::CloudFront::Distribution');
    expect((distribution.Properties.DistributionConfig as Json).WebACLId).toBeUndefined();
  });

  it('is on in prod: a CloudFront-scoped web ACL in a us-east-1 stack of its own', () => {
    expect(regions.get(stackNames({ stage: 'prod' }).edge)).toBe('us-east-1');
    const [, acl] = webAcl();
    expect(acl.Properties).toMatchObject({
      Scope: 'CLOUDFRONT',
      DefaultAction: { Allow: {} },
      Name: 'membership-prod-edge',
    });
    expect((acl.Properties.Rules as Json[]).map((r) => r.Name)).toEqual([
      edgeRuleNames.otpRequestRate,
      edgeRuleNames.common,
      edgeRuleNames.sizeOutsideStaff,
      edgeRuleNames.knownBadInputs,
    ]);
  });

  it('attaches the ACL to the distribution through the cross-region reference', () => {
    const [aclId] = webAcl();
    const [, distribution] = single(appOf('prod'), 'AWS::CloudFront::Distribution');
    const webAclRef = (distribution.Properties.DistributionConfig as Json).WebACLId as {
      'Fn::GetAtt': [string, string];
    };
    const [readerId, parameter] = webAclRef['Fn::GetAtt'];
    expect(appOf('prod').Resources[readerId]!.Type).toBe('Custom::CrossRegionExportReader');
    expect(parameter).toMatch(/^\/cdk\/exports\/Membership-prod-App\//);
    const [, writer] = single(template('prod', 'edge')!, 'Custom::CrossRegionExportWriter');
    const writerProps = writer.Properties.WriterProps as { region: string; exports: Record<string, unknown> };
    expect(writerProps.region).toBe(config.prod.region);
    expect(writerProps.exports[parameter]).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
  });

  it('runs the Core and Known-bad-inputs rule groups of AWS', () => {
    expect(rule(edgeRuleNames.common)).toMatchObject({
      OverrideAction: { None: {} },
      Statement: { ManagedRuleGroupStatement: { VendorName: 'AWS', Name: 'AWSManagedRulesCommonRuleSet' } },
    });
    expect(rule(edgeRuleNames.knownBadInputs)).toMatchObject({
      OverrideAction: { None: {} },
      Statement: { ManagedRuleGroupStatement: { VendorName: 'AWS', Name: 'AWSManagedRulesKnownBadInputsRuleSet' } },
    });
  });

  it('limits code requests per address on the very path CloudFront sends to the API', () => {
    expect(routes.some((r) => r.method === 'POST' && r.path === '/api/otp/request')).toBe(true);
    const [, distribution] = single(appOf('prod'), 'AWS::CloudFront::Distribution');
    const behaviors = (distribution.Properties.DistributionConfig as { CacheBehaviors: Json[] }).CacheBehaviors;
    expect(behaviors.map((b) => b.PathPattern)).toContain('/api/*');
    const rate = rule(edgeRuleNames.otpRequestRate);
    expect(rate).toMatchObject({
      Priority: 0,
      Action: { Block: { CustomResponse: { ResponseCode: 429, CustomResponseBodyKey: 'RateLimited' } } },
      Statement: {
        RateBasedStatement: {
          AggregateKeyType: 'IP',
          Limit: config.prod.waf.otpRequestLimit,
          EvaluationWindowSec: config.prod.waf.otpRequestWindowSeconds,
          ScopeDownStatement: {
            ByteMatchStatement: {
              FieldToMatch: { UriPath: {} },
              PositionalConstraint: 'EXACTLY',
              SearchString: '/api/otp/request',
            },
          },
        },
      },
    });
    // The SPA reads the refusal like the API's own: code RATE_LIMITED.
    const bodies = webAcl()[1].Properties.CustomResponseBodies as Record<
      string,
      { Content: string; ContentType: string }
    >;
    expect(bodies.RateLimited!.ContentType).toBe('APPLICATION_JSON');
    expect(JSON.parse(bodies.RateLimited!.Content)).toMatchObject({ error: { code: 'RATE_LIMITED' } });
  });

  it('lets staff requests above the Core size limits through, and refuses them elsewhere', () => {
    expect(rule(edgeRuleNames.common)).toMatchObject({
      Statement: {
        ManagedRuleGroupStatement: {
          RuleActionOverrides: [
            { Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } },
            { Name: 'SizeRestrictions_QUERYSTRING', ActionToUse: { Count: {} } },
          ],
        },
      },
    });
    const size = rule(edgeRuleNames.sizeOutsideStaff);
    expect(size.Priority).toBeGreaterThan(rule(edgeRuleNames.common).Priority as number);
    expect(size).toMatchObject({
      Action: { Block: { CustomResponse: { ResponseCode: 413 } } },
      Statement: {
        AndStatement: {
          Statements: [
            {
              OrStatement: {
                Statements: [
                  {
                    LabelMatchStatement: {
                      Scope: 'LABEL',
                      Key: 'awswaf:managed:aws:core-rule-set:SizeRestrictions_Body',
                    },
                  },
                  {
                    LabelMatchStatement: {
                      Scope: 'LABEL',
                      Key: 'awswaf:managed:aws:core-rule-set:SizeRestrictions_QueryString',
                    },
                  },
                ],
              },
            },
            {
              NotStatement: {
                Statement: { ByteMatchStatement: { PositionalConstraint: 'STARTS_WITH', SearchString: '/api/admin/' } },
              },
            },
          ],
        },
      },
    });
  });
});

describe('cdk-nag (AwsSolutions), both stages and the edge stack', () => {
  it('reports no unacknowledged error', () => {
    expect(templates.has(stackNames({ stage: 'prod' }).edge)).toBe(true);
    const errors = report.pluginReports.flatMap((plugin) =>
      plugin.violations
        .filter((v) => v.severity === 'error' || v.severity === 'fatal')
        .map((v) => ({ rule: v.ruleName, at: v.violatingConstructs?.map((c) => c.constructPath) })),
    );
    expect(errors).toEqual([]);
  });
});
