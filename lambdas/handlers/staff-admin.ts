import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import * as v from 'valibot';
import { COGNITO_ENDPOINT_ENV, STAFF_USER_POOL_ID_ENV } from '../../contracts/staff-directory';
import { type StaffAction, staffAssignmentSchema, staffInviteSchema, type StaffMember } from '../../rules/staff-admin';
import { url } from '../../rules/schema';
import { makeStaffAudit, type StaffAudit } from '../adapters/staff-audit';
import { cognitoIdp, type DirectoryMember, makeStaffDirectory, type StaffDirectory } from '../adapters/staff-directory';
import { systemClock } from '../lib/clock';
import { dbRuntime } from '../lib/db-runtime';
import { baseEnvSchema, parseEnv } from '../lib/env';
import { AppError, httpHandler, json, parseBody, pathParameter } from '../lib/http';
import { logger } from '../lib/logger';
import { requireStaff, type Staff } from '../lib/staff';
import { wiredOnFirstCall } from '../lib/wiring';
import { tracedCall } from '../lib/tracing';

// The staff area's Staff page (issue 17), admins only: the list, an invitation, a role and
// districts, disable, enable and an authenticator reset. Each change writes its audit
// entry (lambdas/adapters/staff-audit.ts); the logs name the action and the member's
// sub, never an email. A change of role or districts reaches the member's token at its
// next refresh (15 minutes at most), as a disable does.

interface Deps {
  readonly directory: StaffDirectory;
  readonly audit: StaffAudit;
  readonly clock: () => Date;
}

/** What the page shows of a member: the directory's entry without the Cognito username (the email locally). */
const shown = ({ username: _username, ...member }: DirectoryMember): StaffMember => member;

/** The field error an admin gets for a change to themselves that would lock them out. */
const refusedOnSelf = (field: string) => new AppError('VALIDATION_FAILED', { fields: { [field]: 'SELF' } });

async function memberOf(
  directory: StaffDirectory,
  event: APIGatewayProxyEventV2WithJWTAuthorizer,
): Promise<DirectoryMember> {
  const member = await directory.find({ sub: pathParameter(event, 'sub') });
  if (!member) throw new AppError('NOT_FOUND');
  return member;
}

/** The action a route names by its path's last segment (lib/api-routes.ts). */
function actionOf(event: APIGatewayProxyEventV2WithJWTAuthorizer): StaffAction | 'list' | 'invite' {
  if (event.routeKey === 'GET /api/admin/staff') return 'list';
  if (event.routeKey === 'POST /api/admin/staff') return 'invite';
  const action = event.routeKey.split('/').at(-1);
  if (action === 'assign' || action === 'disable' || action === 'enable' || action === 'reset-mfa') return action;
  throw new AppError('NOT_FOUND');
}

async function change(deps: Deps, event: APIGatewayProxyEventV2WithJWTAuthorizer, staff: Staff, action: StaffAction) {
  const { directory, audit, clock } = deps;
  const member = await memberOf(directory, event);
  const self = member.sub === staff.sub;
  switch (action) {
    case 'assign': {
      const assignment = parseBody(event, staffAssignmentSchema);
      if (self && assignment.role !== 'admin') throw refusedOnSelf('role');
      await directory.assign(member.username, assignment);
      await audit.record({ action: 'staff-assign', sub: member.sub, ...assignment }, staff, clock());
      break;
    }
    case 'disable':
    case 'enable':
      if (self && action === 'disable') throw refusedOnSelf('sub');
      await directory.setEnabled(member.username, action === 'enable');
      await audit.record({ action: `staff-${action}`, sub: member.sub }, staff, clock());
      break;
    case 'reset-mfa': {
      // Their own reset would delete the account they are signed in with.
      if (self) throw refusedOnSelf('sub');
      const reset = await directory.resetMfa(member.username);
      await audit.record({ action: 'staff-reset-mfa', sub: reset.sub, previousSub: reset.previousSub }, staff, clock());
      logger.info('Staff member changed', { action, sub: reset.sub, previousSub: reset.previousSub });
      const after = await directory.find({ sub: reset.sub });
      return json(200, {
        member: after && shown(after),
        ...(reset.temporaryPassword && { temporaryPassword: reset.temporaryPassword }),
      });
    }
  }
  logger.info('Staff member changed', { action, sub: member.sub });
  const after = await directory.find({ sub: member.sub });
  return json(200, { member: after && shown(after) });
}

export function makeHandler(deps: Deps) {
  return httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
    const staff = requireStaff(event, 'admin');
    const action = actionOf(event);
    if (action === 'list') return json(200, { items: (await deps.directory.list()).map(shown) });
    if (action !== 'invite') return change(deps, event, staff, action);
    const invite = parseBody(event, staffInviteSchema);
    const result = await deps.directory.invite(invite);
    if (result === 'exists') throw new AppError('VALIDATION_FAILED', { fields: { email: 'TAKEN' } });
    const { member } = result;
    await deps.audit.record(
      { action: 'staff-invite', sub: member.sub, role: invite.role, districts: invite.districts },
      staff,
      deps.clock(),
    );
    logger.info('Staff member invited', { sub: member.sub, role: invite.role });
    return json(201, {
      member: shown(member),
      ...(result.temporaryPassword && { temporaryPassword: result.temporaryPassword }),
    });
  });
}

const staffEnvSchema = v.object({
  ...baseEnvSchema.entries,
  [STAFF_USER_POOL_ID_ENV]: v.pipe(v.string(), v.minLength(1)),
  /** cognito-local's address; only in local mode. */
  [COGNITO_ENDPOINT_ENV]: v.optional(url()),
});

export const handler = wiredOnFirstCall(() => {
  const { db, tables } = dbRuntime('audit');
  const env = parseEnv(staffEnvSchema);
  const endpoint = env.APP_MODE === 'local' ? env[COGNITO_ENDPOINT_ENV] : undefined;
  // Over fetch, not the SDK's client (issue 16), traced as the SDK's client was.
  // Lambda's own credentials, or cognito-local's fixed ones.
  const call = tracedCall(
    'CognitoIdentityServiceProvider',
    cognitoIdp(
      endpoint
        ? { endpoint, region: env.AWS_REGION, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : { region: env.AWS_REGION },
    ),
  );
  return makeHandler({
    directory: makeStaffDirectory({ call, userPoolId: env[STAFF_USER_POOL_ID_ENV], local: env.APP_MODE === 'local' }),
    audit: makeStaffAudit(db, tables.audit),
    clock: systemClock(),
  });
});
