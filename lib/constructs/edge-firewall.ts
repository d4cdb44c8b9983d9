import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { errorMessages } from '../../rules/errors';
import { type RouteDefinition, routes as allRoutes } from '../api-routes';
import { resourcePrefix, type StageConfig } from '../stages';

export interface EdgeFirewallProps {
  readonly config: StageConfig;
  /** Defaults to lib/api-routes.ts. */
  readonly routes?: readonly RouteDefinition[];
}

/**
 * The web ACL's logical id in the Edge stack, fixed whatever the construct's path: it names
 * the SSM parameter that carries the ACL's ARN to the App stack's region.
 */
export const webAclLogicalId = 'EdgeWebAcl';

/** The names of the web ACL's rules, which are also their CloudWatch metric names. */
export const edgeRuleNames = {
  otpRequestRate: 'OtpRequestRatePerIp',
  common: 'AWSManagedRulesCommonRuleSet',
  sizeOutsideStaff: 'SizeRestrictionsOutsideStaffApi',
  knownBadInputs: 'AWSManagedRulesKnownBadInputsRuleSet',
} as const;

/** CloudFront sends every /api/* path to the HTTP API (web-hosting.ts), so the firewall sees API paths as routed. */
const otpRequestPath = '/api/otp/request';
const staffApiPrefix = '/api/admin/';

/**
 * Labels of the Core rule set's size rules, which run in count mode here: a request
 * they label is blocked by our own rule unless it goes to the staff API. Public bodies
 * stay far below the 8 KB limit (the application form caps every field; a Tamil
 * motivation of 1,000 letters is about 3 KB); a staff status change may carry 100 ids
 * of up to 100 characters (rules/staff-api.ts) and the staff list's cursor alone may be
 * 2,000 characters of query string: above the rule set's 8 KB and 2 KB limits, yet
 * legitimate, and those routes already sit behind the JWT authorizer.
 */
const sizeLabels = [
  'awswaf:managed:aws:core-rule-set:SizeRestrictions_Body',
  'awswaf:managed:aws:core-rule-set:SizeRestrictions_QueryString',
];

const errorBody = (code: 'RATE_LIMITED' | 'PAYLOAD_TOO_LARGE') =>
  JSON.stringify({ error: { code, message: errorMessages[code] } });

/**
 * AWS WAF in front of CloudFront: AWS's Core and Known-bad-inputs rule groups and a
 * per-address rate rule on the code request, the one public call that costs money (a
 * WhatsApp message) and a captcha check. A CLOUDFRONT-scoped web ACL must live in
 * us-east-1, so this construct belongs to the stage's Edge stack (lib/edge-stack.ts).
 * Refusals answer in the API's error shape, so that the SPA shows its own message.
 */
export class EdgeFirewall extends Construct {
  public readonly webAcl: wafv2.CfnWebACL;
  public readonly webAclName: string;

  constructor(scope: Construct, id: string, props: EdgeFirewallProps) {
    super(scope, id);
    const { config } = props;
    const routes = props.routes ?? allRoutes;
    if (!routes.some((route) => route.method === 'POST' && route.path === otpRequestPath)) {
      throw new Error(`The rate rule guards POST ${otpRequestPath}, which lib/api-routes.ts no longer has`);
    }
    this.webAclName = `${resourcePrefix(config)}-edge`;
    const visibility = (metricName: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      metricName,
      sampledRequestsEnabled: true,
    });
    const uriPath = (
      positionalConstraint: 'EXACTLY' | 'STARTS_WITH',
      searchString: string,
    ): wafv2.CfnWebACL.StatementProperty => ({
      byteMatchStatement: {
        fieldToMatch: { uriPath: {} },
        positionalConstraint,
        searchString,
        textTransformations: [{ priority: 0, type: 'NONE' }],
      },
    });

    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      name: this.webAclName,
      description: `Membership ${config.stage}: managed rules and the code-request rate limit`,
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(this.webAclName),
      customResponseBodies: {
        RateLimited: { contentType: 'APPLICATION_JSON', content: errorBody('RATE_LIMITED') },
        TooLarge: { contentType: 'APPLICATION_JSON', content: errorBody('PAYLOAD_TOO_LARGE') },
      },
      rules: [
        {
          // First: a flood is refused before the managed rules spend capacity on it.
          name: edgeRuleNames.otpRequestRate,
          priority: 0,
          action: { block: { customResponse: { responseCode: 429, customResponseBodyKey: 'RateLimited' } } },
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'IP',
              limit: config.waf.otpRequestLimit,
              evaluationWindowSec: config.waf.otpRequestWindowSeconds,
              scopeDownStatement: uriPath('EXACTLY', otpRequestPath),
            },
          },
          visibilityConfig: visibility(edgeRuleNames.otpRequestRate),
        },
        {
          name: edgeRuleNames.common,
          priority: 1,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: 'AWSManagedRulesCommonRuleSet',
              ruleActionOverrides: [
                { name: 'SizeRestrictions_BODY', actionToUse: { count: {} } },
                { name: 'SizeRestrictions_QUERYSTRING', actionToUse: { count: {} } },
              ],
            },
          },
          visibilityConfig: visibility(edgeRuleNames.common),
        },
        {
          name: edgeRuleNames.sizeOutsideStaff,
          priority: 2,
          action: { block: { customResponse: { responseCode: 413, customResponseBodyKey: 'TooLarge' } } },
          statement: {
            andStatement: {
              statements: [
                {
                  orStatement: {
                    statements: sizeLabels.map((key) => ({ labelMatchStatement: { scope: 'LABEL', key } })),
                  },
                },
                { notStatement: { statement: uriPath('STARTS_WITH', staffApiPrefix) } },
              ],
            },
          },
          visibilityConfig: visibility(edgeRuleNames.sizeOutsideStaff),
        },
        {
          name: edgeRuleNames.knownBadInputs,
          priority: 3,
          overrideAction: { none: {} },
          statement: { managedRuleGroupStatement: { vendorName: 'AWS', name: 'AWSManagedRulesKnownBadInputsRuleSet' } },
          visibilityConfig: visibility(edgeRuleNames.knownBadInputs),
        },
      ],
    });
    // A stable identity: the ARN reaches the App stack through CDK's cross-region export
    // writer (core/lib/dist/core/cross-region-ssm-writer-handler in aws-cdk-lib), which on
    // update only puts parameters under new names and deletes removed ones: a changed value
    // under an existing name is never written, and the App stack's reader would not see it
    // either. A replaced ACL would leave CloudFront on a stale (deleted) ACL's ARN. So the
    // logical id is fixed, and the name (`membership-<stage>-edge`, pinned by
    // test/infra/first-deploy.test.ts): a change that needs a replacement fails the Edge
    // deploy loudly, as CloudFormation does not replace a resource under the same custom
    // name. A deliberate replacement is three deploys: both stacks without the ACL attached
    // (the parameter goes), the new ACL, then attached again (a new parameter is written).
    this.webAcl.overrideLogicalId(webAclLogicalId);
  }
}
