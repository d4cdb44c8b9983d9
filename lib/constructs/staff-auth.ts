import { Duration } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { type StageConfig, resourcePrefix } from '../stages';
import { DISTRICTS_ATTRIBUTE, type StaffRole } from '../../rules/staff-scope';
import { retainedDataPolicy } from './retention';

export interface StaffAuthProps {
  readonly config: StageConfig;
}

/** Staff role groups (rules/staff-scope.ts); the API refuses a signed-in user who is in none. */
const staffGroups: Record<StaffRole, { id: string; description: string }> = {
  admin: { id: 'AdminGroup', description: 'Everything, every district: status changes, erasure, staff management' },
  coordinator: {
    id: 'CoordinatorGroup',
    description: 'Review, exports and reports in the districts of custom:districts',
  },
  viewer: { id: 'ViewerGroup', description: 'Read-only, in every district or in those of custom:districts' },
};

/** The staff user pool: admin-created accounts only, email sign-in, TOTP required of everyone. */
export class StaffAuth extends Construct {
  public readonly userPool: cognito.UserPool;
  public readonly spaClient: cognito.UserPoolClient;

  constructor(scope: Construct, id: string, { config }: StaffAuthProps) {
    super(scope, id);

    this.userPool = new cognito.UserPool(this, 'UserPool', {
      userPoolName: `${resourcePrefix(config)}-staff`,
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      // A coordinator's or scoped viewer's districts (ids, comma-separated), in the ID
      // token as custom:districts; a change is seen at the next refresh (15 minutes). Only
      // admins write it (the staff API, `npm run staff`): the SPA client may not (below).
      // An attribute, not a group per district: one claim, any set of the 38 districts,
      // and room to name constituencies later without 234 groups.
      customAttributes: {
        [DISTRICTS_ATTRIBUTE]: new cognito.StringAttribute({ minLen: 0, maxLen: 2048, mutable: true }),
      },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      // A phished password alone opens nothing: every staff user has an authenticator app
      // (TOTP only: no SMS to intercept, no SMS bill). A user without one enrols at the
      // first sign-in (MFA_SETUP); the SPA walks them through it.
      mfa: cognito.Mfa.REQUIRED,
      mfaSecondFactor: { sms: false, otp: true, email: false },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      // A handful of staff accounts: the Plus plan's compromised-credential and
      // risk-based checks cost cents a month and guard access to every application.
      featurePlan: cognito.FeaturePlan.PLUS,
      standardThreatProtectionMode: cognito.StandardThreatProtectionMode.FULL_FUNCTION,
      deletionProtection: config.retainData,
      // Staff accounts and their authenticator enrolments cannot be recreated from code.
      removalPolicy: retainedDataPolicy(config),
    });

    for (const [groupName, { id, description }] of Object.entries(staffGroups)) {
      const group = this.userPool.addGroup(id, { groupName, description });
      // Deleting a group deletes its memberships (who is admin): kept with the pool. The
      // client holds no data: a new one needs only the App stack deployed again.
      group.applyRemovalPolicy(retainedDataPolicy(config));
    }

    this.spaClient = this.userPool.addClient('SpaClient', {
      userPoolClientName: `${resourcePrefix(config)}-spa`,
      generateSecret: false,
      // SRP only: the password never travels, even inside TLS. USER_PASSWORD_AUTH exists
      // only in local mode, on cognito-local's client (local/cognito.ts), which lacks SRP.
      authFlows: { userSrp: true },
      disableOAuth: true,
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      // Fifteen minutes, refreshed silently by Amplify; Cognito refuses the refresh of a
      // disabled user, so a disabled user loses access within 15 minutes.
      accessTokenValidity: Duration.minutes(15),
      idTokenValidity: Duration.minutes(15),
      refreshTokenValidity: Duration.hours(12),
      // Staff cannot change their own email: the audit trail shows it beside their stable
      // id (only AdminUpdateUserAttributes can). An empty list would mean every attribute.
      writeAttributes: new cognito.ClientAttributes().withStandardAttributes({ locale: true }),
    });
  }
}
