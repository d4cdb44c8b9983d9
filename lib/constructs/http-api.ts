import { type RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { RouteDefinition } from '../api-routes';
import type { StageConfig } from '../stages';
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

/**
 * The HTTP API: exactly the routes of lib/api-routes.ts, staff routes behind the
 * Cognito JWT authorizer, no catch-all route, stage-wide throttling, access logs.
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

    for (const route of props.routes) {
      const isStaff = route.access === 'staff';
      if (isStaff !== route.path.startsWith('/api/admin/')) {
        throw new Error(`Route ${route.method} ${route.path}: staff routes, and only they, live under /api/admin/`);
      }
      const routeId = `${route.method}${pascalCase(route.path)}`;
      const [created] = this.api.addRoutes({
        path: route.path,
        methods: [apigw.HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${routeId}Integration`, props.functionFor(route)),
        authorizer: isStaff ? staffAuthorizer : undefined,
      });
      if (!isStaff && created) {
        Validations.of(created).acknowledge({
          id: 'AwsSolutions-APIG4',
          reason:
            'Public route of the application flow: visitors have no account; abuse is bounded by reCAPTCHA, per-number rate limits and stage throttling.',
        });
      }
    }

    this.domainName = `${this.api.apiId}.execute-api.${region}.${Stack.of(this).urlSuffix}`;
  }
}
