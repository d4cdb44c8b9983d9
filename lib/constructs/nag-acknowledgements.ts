import { Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';

// cdk-nag names a wildcard finding after the flattened policy text, e.g.
// `AwsSolutions-IAM5[Resource::<SiteBucket1234.Arn>/*]`, and an acknowledgement must
// name the finding exactly. For policies that CDK writes for its own helper functions
// we compute those names from the policy itself, the way cdk-nag does, so that they
// stay right whatever the account, region or logical ids.

/** Flattens a resolved CloudFormation value the way cdk-nag's flattenCfnReference does. */
function flatten(node: unknown): string {
  if (node === undefined) return '';
  if (typeof node === 'string') return node.replace(/\$\{/g, '<').replace(/\}/g, '>');
  if (node && typeof node === 'object') {
    const value = node as Record<string, unknown>;
    if (Array.isArray(value['Fn::Join'])) {
      const [delimiter, items] = value['Fn::Join'] as [string, unknown[]];
      return items.map(flatten).join(delimiter);
    }
    if (value['Fn::Sub'] !== undefined) return flatten(value['Fn::Sub']);
    if (Array.isArray(value['Fn::GetAtt'])) {
      const [resource, attribute] = value['Fn::GetAtt'] as [unknown, unknown];
      return `<${flatten(resource)}.${flatten(attribute)}>`;
    }
    if (value['Fn::ImportValue'] !== undefined) return flatten(value['Fn::ImportValue']);
    if (value.Ref !== undefined) return `<${flatten(value.Ref)}>`;
  }
  return JSON.stringify(node);
}

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

interface PolicyStatementJson {
  readonly Effect?: string;
  readonly Action?: unknown;
  readonly Resource?: unknown;
}

/** The AwsSolutions-IAM5 finding ids of a policy document. */
function wildcardFindings(stack: Stack, document: iam.PolicyDocument): string[] {
  const resolved = stack.resolve(document) as { Statement?: PolicyStatementJson[] } | undefined;
  const findings = new Set<string>();
  for (const statement of resolved?.Statement ?? []) {
    if (statement.Effect !== 'Allow') continue;
    for (const action of asArray(statement.Action)) {
      if (typeof action === 'string' && action.includes('*')) findings.add(`AwsSolutions-IAM5[Action::${action}]`);
    }
    for (const resource of asArray(statement.Resource)) {
      const flat = flatten(resource);
      if (flat.includes('*')) findings.add(`AwsSolutions-IAM5[Resource::${flat}]`);
    }
  }
  return [...findings];
}

/** Acknowledges every wildcard of a role's policies, each with the same reason. */
function acknowledgeRoleWildcards(role: iam.IRole, reason: string): void {
  const stack = Stack.of(role);
  for (const child of role.node.findAll()) {
    if (child instanceof iam.Policy) {
      for (const id of wildcardFindings(stack, child.document)) Validations.of(child).acknowledge({ id, reason });
    }
  }
}

/** Acknowledges the AWS managed policies of a role (AwsSolutions-IAM4), each by name. */
function acknowledgeManagedPolicies(role: iam.Role, reason: string): void {
  const cfnRole = role.node.defaultChild as iam.CfnRole;
  const arns = Stack.of(role).resolve(cfnRole.managedPolicyArns) as unknown;
  for (const arn of Array.isArray(arns) ? arns : []) {
    Validations.of(role).acknowledge({ id: `AwsSolutions-IAM4[Policy::${flatten(arn)}]`, reason });
  }
}

/**
 * The functions CDK adds on its own (BucketDeployment's handler): their code, runtime
 * and role are aws-cdk-lib's. Call at the end of the stack's constructor.
 */
export function acknowledgeCdkSingletonFunctions(stack: Stack): void {
  for (const child of stack.node.children) {
    if (!child.node.id.startsWith('Custom::CDKBucketDeployment')) continue;
    const fn = child;
    Validations.of(fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason: "CDK's BucketDeployment handler: its runtime is chosen and kept current by aws-cdk-lib, not by us.",
    });
    if (fn instanceof lambda.Function && fn.role instanceof iam.Role) {
      acknowledgeManagedPolicies(
        fn.role,
        "CDK's BucketDeployment handler uses AWSLambdaBasicExecutionRole (log writing only); its role is CDK's.",
      );
      acknowledgeRoleWildcards(
        fn.role,
        "CDK's BucketDeployment handler: reads the CDK asset objects, replaces objects in the site bucket (prefix wildcards of s3:GetObject*/DeleteObject*/List*) and invalidates the distribution (cloudfront:CreateInvalidation has no resource-level scope).",
      );
    }
  }
}
