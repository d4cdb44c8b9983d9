// `npm start`: the whole product on this machine, no AWS account needed.
import { removeLocalEndpoints, writeLocalEndpoints } from '../ops/target';
import { localConfigSchema } from './config';
import { demoCampaignLines } from './campaign-seed';
import { startLocalStack } from './stack';

// Node 20 is supported; the SDK's notice about its future Node 22 requirement is in the README.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const config = localConfigSchema.parse(process.env);
const started = Date.now();
const stack = await startLocalStack(config, (line) => process.stdout.write(`[api] ${line}\n`));
// Operator commands (`npm run staff`, `npm run import`, ...) find the stack through this file.
writeLocalEndpoints(config.LOCAL_DATA_DIR, {
  dynamoDbEndpoint: stack.dynamoDbEndpoint,
  cognitoEndpoint: stack.cognitoEndpoint,
  userPoolId: stack.pool.userPoolId,
  userPoolClientId: stack.pool.clientId,
  outboundQueueUrl: stack.outboundQueueUrl,
  tableNames: stack.tableNames,
});

process.stdout.write(`
  Membership site, local mode (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)

  App               ${stack.appUrl}
  Staff area        ${stack.appUrl}/admin   (${stack.admin.email} / ${stack.admin.password})
  Staff TOTP secret ${stack.admin.totpSecret}   (${stack.admin.email}; local only: add it to any authenticator app, or oathtool --totp -b ${stack.admin.totpSecret})
  Coordinator       ${stack.coordinator.email} / ${stack.coordinator.password}   (Chennai, Tiruvallur; TOTP secret ${stack.coordinator.totpSecret})
  Outbox            ${stack.appUrl}/dev/outbox   (WhatsApp and SMS; JSON: /dev/outbox.json)
  Webhook sink      ${stack.appUrl}/dev/webhooks.json
  API adapter       ${stack.apiUrl}
  DynamoDB Local    ${stack.dynamoDbEndpoint}
  cognito-local     ${stack.cognitoEndpoint}   (pool ${stack.pool.userPoolId}, client ${stack.pool.clientId})
  WhatsApp sandbox  ${stack.whatsAppUrl}
  SMS sandbox       ${stack.smsUrl}   (codes go by ${config.LOCAL_OTP_CHANNELS})
  Demo campaigns    ${demoCampaignLines(stack.appUrl).join('\n                    ')}
  Data              ${config.LOCAL_PERSISTENCE === 'disk' ? config.LOCAL_DATA_DIR : 'in memory'}   (wipe: npm run local:reset)

  Ready. Ctrl+C stops everything.
`);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  process.stdout.write('Stopping...\n');
  removeLocalEndpoints(config.LOCAL_DATA_DIR);
  stack.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
