// cognito-local's server, built as its own `lib/bin/start.js` builds it, with the MFA setup
// it lacks added in front of its router (./cognito-mfa). Run as a child process in the
// folder that holds `.cognito/` (local/cognito.ts); PORT and HOST as for cognito-local.
import AWS from 'aws-sdk';
import pino from 'pino';
import { Router } from 'cognito-local/lib/server/Router';
import { loadConfig } from 'cognito-local/lib/server/config';
import { createServer } from 'cognito-local/lib/server/server';
import { DateClock, LambdaService, MessagesService, TriggersService, type Services } from 'cognito-local/lib/services';
import { CognitoServiceFactoryImpl } from 'cognito-local/lib/services/cognitoService';
import { CryptoService } from 'cognito-local/lib/services/crypto';
import { StormDBDataStoreFactory } from 'cognito-local/lib/services/dataStore/stormDb';
import { ConsoleMessageSender } from 'cognito-local/lib/services/messageDelivery/consoleMessageSender';
import { MessageDeliveryService } from 'cognito-local/lib/services/messageDelivery/messageDelivery';
import { otp } from 'cognito-local/lib/services/otp';
import { JwtTokenGenerator } from 'cognito-local/lib/services/tokenGenerator';
import { UserPoolServiceFactoryImpl } from 'cognito-local/lib/services/userPoolService';
import { localSecretRoute, mfaTargets } from './cognito-mfa';

const logger = pino({ level: process.env.DEBUG ? 'debug' : 'info' });
const ctx = { logger };
const config = await loadConfig(ctx, new StormDBDataStoreFactory('.cognito'));
const clock = new DateClock();
const dataStoreFactory = new StormDBDataStoreFactory('.cognito/db');
const cognito = await new CognitoServiceFactoryImpl(
  '.cognito/db',
  dataStoreFactory,
  new UserPoolServiceFactoryImpl(clock, dataStoreFactory),
).create(ctx, config.UserPoolDefaults);
const triggers = new TriggersService(
  clock,
  cognito,
  new LambdaService(config.TriggerFunctions, new AWS.Lambda(config.LambdaClient)),
  new CryptoService(config.KMSConfig),
);
const services: Services = {
  clock,
  cognito,
  config,
  messages: new MessagesService(triggers, new MessageDeliveryService(new ConsoleMessageSender())),
  otp,
  tokenGenerator: new JwtTokenGenerator(clock, triggers, config.TokenConfig),
  triggers,
};

const base = Router(services);
const overrides = mfaTargets(services, base);
const server = createServer((target) => overrides[target] ?? base(target), logger, config.ServerConfig, services);
localSecretRoute(server.application as Parameters<typeof localSecretRoute>[0], services, ctx);
const listening = await server.start();
const address = listening.address();
logger.info(`cognito-local (with MFA setup) on ${typeof address === 'string' ? address : `${address?.address}:${address?.port}`}`);
