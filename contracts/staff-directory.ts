// What the staff-management function and the CDK app agree on (issue 17): the variable
// that names the staff pool, and the Cognito actions the function is granted on that
// pool's ARN, no more (lib/api-routes.ts `managesStaff`). In contracts/ because a Lambda
// bundle must not reach into the CDK app's lib/ (eslint.config.js).

/** The staff user pool's id. */
export const STAFF_USER_POOL_ID_ENV = 'STAFF_USER_POOL_ID';
/** cognito-local's address; only in local mode. */
export const COGNITO_ENDPOINT_ENV = 'COGNITO_ENDPOINT';

/** Every call lambdas/adapters/staff-directory.ts makes. */
export const staffDirectoryActions = [
  'cognito-idp:ListUsers',
  'cognito-idp:AdminGetUser',
  'cognito-idp:AdminListGroupsForUser',
  'cognito-idp:AdminListUserAuthEvents',
  'cognito-idp:AdminCreateUser',
  'cognito-idp:AdminDeleteUser',
  'cognito-idp:AdminAddUserToGroup',
  'cognito-idp:AdminRemoveUserFromGroup',
  'cognito-idp:AdminUpdateUserAttributes',
  'cognito-idp:AdminDeleteUserAttributes',
  'cognito-idp:AdminDisableUser',
  'cognito-idp:AdminEnableUser',
] as const;
