// `npm start`: the whole product on this machine, no AWS account needed.
import { localConfigSchema } from './config';
import { startLocalStack } from './stack';

const config = localConfigSchema.parse(process.env);
const started = Date.now();
const stack = await startLocalStack(config, (line) => process.stdout.write(`[api] ${line}\n`));

process.stdout.write(`
  Membership site, local mode (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)

  App               ${stack.appUrl}
  Staff area        ${stack.appUrl}/admin   (${stack.admin.email} / ${stack.admin.password})
  WhatsApp outbox   ${stack.appUrl}/dev/outbox   (JSON: /dev/outbox.json)
  Webhook sink      ${stack.appUrl}/dev/webhooks.json
  API adapter       ${stack.apiUrl}
  DynamoDB Local    ${stack.dynamoDbEndpoint}
  cognito-local     ${stack.cognitoEndpoint}   (pool ${stack.pool.userPoolId}, client ${stack.pool.clientId})
  WhatsApp sandbox  ${stack.whatsAppUrl}
  Data              ${config.LOCAL_PERSISTENCE === 'disk' ? config.LOCAL_DATA_DIR : 'in memory'}   (wipe: npm run local:reset)

  Ready. Ctrl+C stops everything.
`);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  process.stdout.write('Stopping...\n');
  stack.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
