import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { ORIGIN_HEADER } from '../../lambdas/lib/front-door';
import { parseRuntimeConfig, type RuntimeConfig } from '../../rules/runtime-config';
import type { StageConfig } from '../stages';
import { retainedDataPolicy } from './retention';

export interface WebHostingProps {
  readonly config: StageConfig;
  /** The built SPA (web/dist in the app; a temporary directory in tests). */
  readonly webAssetDir: string;
  /** Host name of the HTTP API's default endpoint. */
  readonly apiDomainName: string;
  readonly userPoolId: string;
  readonly userPoolClientId: string;
  /** The stage's web ACL (us-east-1, Edge stack), when the stage has `waf.enabled`. */
  readonly webAclArn?: string;
  /** The origin secret: its `current` token goes to the API as `x-origin-verify`. */
  readonly originSecret: secretsmanager.ISecret;
}

/** The header CloudFront adds to every API request, with the origin secret's current token. */
export const originVerifyHeader = ORIGIN_HEADER;

/**
 * Viewer headers the API reads, and the one CloudFront header it needs. CloudFront sets
 * CloudFront-Viewer-Address itself (the viewer's IP and port); a viewer's own header of
 * that name never reaches the origin. Authorization is not listed: an origin request
 * policy may not forward it, so the API's cache policy carries it (in its cache key).
 */
export const apiForwardedHeaders = [
  'Accept',
  'Accept-Language',
  'Content-Type',
  'Origin',
  'Referer',
  'User-Agent',
  // Meta signs each webhook POST with the app secret.
  'X-Hub-Signature-256',
  'CloudFront-Viewer-Address',
] as const;

/**
 * Rewrites every path that names no file (an SPA route such as /admin/reports) to
 * /index.html. A viewer-request function rather than CloudFront error responses:
 * those would also turn the API's own 403/404 answers into the SPA's page.
 */
export const spaRewriteCode = `
function handler(event) {
  var request = event.request;
  var uri = request.uri;
  if (uri === '/api' || uri.indexOf('/api/') === 0) return request;
  var last = uri.substring(uri.lastIndexOf('/') + 1);
  if (last.indexOf('.') === -1) request.uri = '/index.html';
  return request;
}
`;

/** The content security policy: own origin, the captcha, Cognito; nothing else. */
export function contentSecurityPolicy(region: string): string {
  return [
    "default-src 'self'",
    "script-src 'self' https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/",
    'frame-src https://www.google.com/recaptcha/ https://recaptcha.google.com/recaptcha/',
    `connect-src 'self' https://cognito-idp.${region}.amazonaws.com`,
    "img-src 'self' data:",
    "style-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The SPA in a private bucket behind CloudFront, with the API under /api on the same domain. */
export class WebHosting extends Construct {
  public readonly bucket: s3.Bucket;
  public readonly logsBucket: s3.Bucket;
  public readonly distribution: cloudfront.Distribution;
  public readonly responseHeadersPolicy: cloudfront.ResponseHeadersPolicy;
  public readonly siteUrl: string;

  constructor(scope: Construct, id: string, props: WebHostingProps) {
    super(scope, id);
    const { config } = props;
    const region = Stack.of(this).region;
    // Both buckets are kept on update or delete where the stage retains data (not after a
    // failed first create: lib/constructs/retention.ts). The logs bucket holds CloudFront's
    // and S3's access logs, which nothing can recreate. The site bucket holds only the build,
    // but destroying it would take the auto-delete helper, a function allowed to delete every
    // object, which such a stage does without; after a stack delete it is emptied by hand.
    const removal = config.retainData
      ? { removalPolicy: retainedDataPolicy(config) }
      : { removalPolicy: RemovalPolicy.DESTROY, autoDeleteObjects: true };

    this.logsBucket = new s3.Bucket(this, 'LogsBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // CloudFront standard logs are delivered with an ACL grant; they need ACLs enabled.
      objectOwnership: s3.ObjectOwnership.OBJECT_WRITER,
      lifecycleRules: [{ expiration: Duration.days(config.logRetentionDays) }],
      ...removal,
    });
    Validations.of(this.logsBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This bucket is the destination of the access logs; logging it into itself would loop.',
    });

    this.bucket = new s3.Bucket(this, 'SiteBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.logsBucket,
      serverAccessLogsPrefix: 's3-site/',
      ...removal,
    });

    const spaRewrite = new cloudfront.Function(this, 'SpaRewrite', {
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      comment: 'SPA routes to /index.html',
      code: cloudfront.FunctionCode.fromInline(spaRewriteCode),
    });

    this.responseHeadersPolicy = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: `Membership ${config.stage}: security headers`,
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: contentSecurityPolicy(region), override: true },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(730),
          includeSubdomains: true,
          preload: true,
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: {
          referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
          override: true,
        },
      },
    });

    const apiOrigin = new origins.HttpOrigin(props.apiDomainName, {
      protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
      // Proves a request came through this distribution: the API trusts the viewer address
      // header only beside it. A CloudFormation dynamic reference, resolved at deploy time:
      // the value is in no template. CloudFront replaces a viewer's header of the same name.
      customHeaders: {
        // A dynamic reference, resolved by CloudFormation at deploy: never in the template.
        [originVerifyHeader]: props.originSecret.secretValueFromJson('current').unsafeUnwrap(),
      },
    });

    // The API's responses are never cached: TTL 0 unless the API itself says otherwise (it
    // does not), and then at most a second, keyed by the caller's token and the query string.
    // Not the managed CachingDisabled policy: with it only the managed AllViewer origin
    // request policies may forward Authorization, and the API needs a policy of its own
    // that names CloudFront-Viewer-Address and keeps the Host header out.
    const apiCachePolicy = new cloudfront.CachePolicy(this, 'ApiCachePolicy', {
      comment: `Membership ${config.stage}: the API, uncached; Authorization reaches the origin`,
      defaultTtl: Duration.seconds(0),
      minTtl: Duration.seconds(0),
      maxTtl: Duration.seconds(1),
      headerBehavior: cloudfront.CacheHeaderBehavior.allowList('Authorization'),
      queryStringBehavior: cloudfront.CacheQueryStringBehavior.all(),
      cookieBehavior: cloudfront.CacheCookieBehavior.none(),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
    const apiOriginRequestPolicy = new cloudfront.OriginRequestPolicy(this, 'ApiOriginRequestPolicy', {
      comment: `Membership ${config.stage}: the API's headers and the viewer's address`,
      headerBehavior: cloudfront.OriginRequestHeaderBehavior.allowList(...apiForwardedHeaders),
      queryStringBehavior: cloudfront.OriginRequestQueryStringBehavior.all(),
      cookieBehavior: cloudfront.OriginRequestCookieBehavior.none(),
    });

    const domain = config.customDomain;
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: `Membership ${config.stage}`,
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: this.responseHeadersPolicy,
        functionAssociations: [{ function: spaRewrite, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
        compress: true,
      },
      additionalBehaviors: {
        '/api/*': {
          origin: apiOrigin,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          cachePolicy: apiCachePolicy,
          originRequestPolicy: apiOriginRequestPolicy,
          responseHeadersPolicy: this.responseHeadersPolicy,
          compress: true,
        },
      },
      // Price class 200 includes the edge locations in India; 100 does not.
      priceClass: cloudfront.PriceClass.PRICE_CLASS_200,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      enableLogging: true,
      logBucket: this.logsBucket,
      logFilePrefix: 'cloudfront/',
      webAclId: props.webAclArn,
      ...(domain
        ? {
            domainNames: [domain.domainName],
            certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', domain.certificateArn),
            minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
    });
    if (!domain) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR4',
        reason:
          'Without a custom domain the distribution uses the default *.cloudfront.net certificate, whose TLS policy cannot be chosen; set customDomain in lib/stages.ts to get TLSv1.2_2021.',
      });
    }
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'Visitors are in India and abroad (students studying elsewhere); no geo restriction is wanted.',
    });
    if (!props.webAclArn) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR2',
        reason: `No WAF in stage ${config.stage} (waf.enabled is off in lib/stages.ts: a fixed monthly cost): the public endpoints are guarded by reCAPTCHA, per-number and per-IP limits and API throttling per route.`,
      });
    }

    this.siteUrl = `https://${domain ? domain.domainName : this.distribution.distributionDomainName}`;

    // One build serves every stage: the stage's settings go next to it as /config.json.
    const runtimeConfig: RuntimeConfig = parseRuntimeConfig({
      stage: config.stage,
      apiBasePath: '/api',
      defaultLanguage: config.defaultLanguage,
      captcha: {
        siteKey: config.captcha.siteKey,
        scriptUrl: `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(config.captcha.siteKey)}`,
      },
      cognito: { region, userPoolId: props.userPoolId, userPoolClientId: props.userPoolClientId },
      dataNotice: {
        contact: config.dataContact,
        rejectedApplicationDays: config.retention.rejectedApplicationDays,
      },
    } satisfies RuntimeConfig);

    const site = s3deploy.Source.asset(props.webAssetDir);
    // Content-hashed bundles: cached for a year, never pruned (open tabs may still load
    // the chunks of the previous release).
    const hashedAssets = new s3deploy.BucketDeployment(this, 'DeployHashedAssets', {
      sources: [site],
      destinationBucket: this.bucket,
      exclude: ['*'],
      include: ['assets/*'],
      prune: false,
      cacheControl: [
        s3deploy.CacheControl.setPublic(),
        s3deploy.CacheControl.maxAge(Duration.days(365)),
        s3deploy.CacheControl.immutable(),
      ],
      memoryLimit: 512,
    });
    // Other files with fixed names (icons, fonts in public/): an hour.
    const otherFiles = new s3deploy.BucketDeployment(this, 'DeployOtherFiles', {
      sources: [site],
      destinationBucket: this.bucket,
      exclude: ['assets/*', 'index.html', 'config.json'],
      prune: false,
      cacheControl: [s3deploy.CacheControl.setPublic(), s3deploy.CacheControl.maxAge(Duration.hours(1))],
      memoryLimit: 512,
    });
    // Entry points last, revalidated on every load, so a release switches at once.
    const entryPoints = new s3deploy.BucketDeployment(this, 'DeployEntryPoints', {
      sources: [site, s3deploy.Source.jsonData('config.json', runtimeConfig)],
      destinationBucket: this.bucket,
      exclude: ['*'],
      include: ['index.html', 'config.json'],
      prune: false,
      cacheControl: [s3deploy.CacheControl.noCache()],
      distribution: this.distribution,
      distributionPaths: ['/index.html', '/config.json'],
      memoryLimit: 512,
    });
    entryPoints.node.addDependency(hashedAssets, otherFiles);
  }
}
