import { Duration, type RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { RouteDefinition } from '../api-routes';
import { routeKey, type StageConfig } from '../stages';
import { pascalCase } from './project-function';

export interface HttpApiProps {
  readonly config: StageConfig;
  readonly routes: readonly RouteDefinition[];
  /** The function that serves a route (one per route). */
  readonly functionFor: (route: RouteDefinition) => lambda.IFunction;
  readonly userPool: cognito.IUserPool;
  readonly spaClient: cognito.IUserPoolClient;
  readonly logRemovalPolicy: RemovalPolicy;
}

/** The visitor's steps (code request, its delivery status, code check, submit): public routes that do work. */
export function publicFlowRoutes(routes: readonly RouteDefinition[]): RouteDefinition[] {
  return routes.filter((route) => route.access === 'public' && route.method === 'POST' && route.caller !== 'provider');
}

/**
 * The HTTP API: exactly the routes of lib/api-routes.ts, staff routes behind the
 * Cognito JWT authorizer, no catch-all route, stage-wide throttling with tighter
 * per-route limits from the stage config, route metrics for the public flow, access logs.
 *
 * No X-Ray here: HTTP APIs do not support it (REST APIs do). Requests are followed by the
 * access log's requestId and latencies, and by the functions' own traces.
 */
export class HttpApi extends Construct {
  public readonly api: apigw.HttpApi;
  public readonly stage: apigw.HttpStage;
  /** Host name of the default endpoint, for the CloudFront origin. */
  public readonly domainName: string;

  constructor(scope: Construct, id: string, props: HttpApiProps) {
    super(scope, id);
    const { config } = props;
    const region = Stack.of(this).region;

    this.api = new apigw.HttpApi(this, 'Api', {
      apiName: `membership-${config.stage}`,
      description: `Membership API (${config.stage}); reached through CloudFront under /api`,
      // The stage below is declared explicitly, for its throttling and access logs.
      createDefaultStage: false,
    });

    const accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: config.logRetentionDays as logs.RetentionDays,
      removalPolicy: props.logRemovalPolicy,
    });
    this.stage = new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: config.api.throttleRateLimit, burstLimit: config.api.throttleBurstLimit },
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(accessLogs),
        // Path without query string; no body, no headers: nothing personal but the address.
        // `ip` is CloudFront's edge address, not the viewer's: an HTTP API's access log can
        // write $context variables only, never a request header such as
        // CloudFront-Viewer-Address. The viewer's address is in CloudFront's own logs (c-ip,
        // logs bucket, cloudfront/) and in the functions' log lines (docs/RUNBOOK.md).
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            time: '$context.requestTime',
            ip: '$context.identity.sourceIp',
            method: '$context.httpMethod',
            routeKey: '$context.routeKey',
            path: '$context.path',
            status: '$context.status',
            latencyMs: '$context.responseLatency',
            integrationStatus: '$context.integrationStatus',
            integrationError: '$context.integrationErrorMessage',
            authorizerError: '$context.authorizer.error',
            responseLength: '$context.responseLength',
          }),
        ),
      },
    });

    const staffAuthorizer = new HttpJwtAuthorizer(
      'StaffJwt',
      `https://cognito-idp.${region}.amazonaws.com/${props.userPool.userPoolId}`,
      {
        authorizerName: 'staff-jwt',
        jwtAudience: [props.spaClient.userPoolClientId],
        identitySource: ['$request.header.Authorization'],
      },
    );

    const created = new Map<string, apigw.HttpRoute>();
    for (const route of props.routes) {
      const isStaff = route.access === 'staff';
      if (isStaff !== route.path.startsWith('/api/admin/')) {
        throw new Error(`Route ${route.method} ${route.path}: staff routes, and only they, live under /api/admin/`);
      }
      const routeId = `${route.method}${pascalCase(route.path)}`;
      const [httpRoute] = this.api.addRoutes({
        path: route.path,
        methods: [apigw.HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${routeId}Integration`, props.functionFor(route)),
        authorizer: isStaff ? staffAuthorizer : undefined,
      });
      if (httpRoute) created.set(routeKey(route), httpRoute);
      if (!isStaff && httpRoute) {
        Validations.of(httpRoute).acknowledge({
          id: 'AwsSolutions-APIG4',
          reason:
            'Public route of the application flow: visitors have no account; abuse is bounded by reCAPTCHA, per-number rate limits and stage throttling.',
        });
      }
    }

    this.setRouteSettings(config, created, publicFlowRoutes(props.routes).map(routeKey));

    this.domainName = `${this.api.apiId}.execute-api.${region}.${Stack.of(this).urlSuffix}`;
  }

  /**
   * Per-route throttles (beside the stage-wide default) and route-level metrics for the
   * public flow, which its latency alarms read. Detailed metrics are custom metrics at
   * CloudWatch prices (six per route), so only those routes have them.
   */
  private setRouteSettings(config: StageConfig, created: ReadonlyMap<string, apigw.HttpRoute>, metered: string[]) {
    const settings: Record<string, Record<string, number | boolean>> = {};
    for (const key of metered) settings[key] = { DetailedMetricsEnabled: true };
    for (const [key, limit] of Object.entries(config.api.routeThrottles)) {
      settings[key] = {
        ...settings[key],
        ThrottlingRateLimit: limit.rateLimit,
        ThrottlingBurstLimit: limit.burstLimit,
      };
    }
    for (const key of Object.keys(settings)) {
      const route = created.get(key);
      if (!route) throw new Error(`Route settings for ${key}, which this API does not have`);
      // API Gateway refuses settings for a route that does not exist yet.
      this.stage.node.addDependency(route);
    }
    (this.stage.node.defaultChild as apigw.CfnStage).routeSettings = settings;
  }

  /** A route-level metric (detailed metrics: the public flow's routes only). */
  routeMetric(route: RouteDefinition, metricName: string, props: cloudwatch.MetricOptions = {}): cloudwatch.Metric {
    return new cloudwatch.Metric({
      namespace: 'AWS/ApiGateway',
      metricName,
      // HTTP APIs name a route's metrics by method and path ("resource"), per stage.
      dimensionsMap: { ApiId: this.api.apiId, Stage: this.stage.stageName, Method: route.method, Resource: route.path },
      period: Duration.minutes(5),
      ...props,
    });
  }
}
