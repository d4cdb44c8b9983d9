import { Duration } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { type StageConfig, resourcePrefix } from '../stages';
import { retainedDataPolicy } from './retention';

export interface StaffAuthProps {
  readonly config: StageConfig;
}

/** Staff role groups; the API refuses a signed-in user who is in neither. */
const staffGroupNames = ['admin', 'viewer'] as const;

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

    for (const groupName of staffGroupNames) {
      const group = this.userPool.addGroup(groupName === 'admin' ? 'AdminGroup' : 'ViewerGroup', {
        groupName,
        description: groupName === 'admin' ? 'Everything, including status changes and erasure' : 'Read-only staff',
      });
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
