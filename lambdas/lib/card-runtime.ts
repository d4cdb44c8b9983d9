import { type CardReader, makeCardReader } from '../adapters/member-cards';
import { makeSecretsLoader, type SecretsLoader, secretsEnvSchema } from '../adapters/secrets';
import { type CardKeys, cardKeysOf } from './card-keys';
import { makeDocumentClient } from './dynamo';
import { baseEnvSchema, parseEnv, tableName } from './env';

// What the public card routes are wired from (issue 20): the card secret's keys (read
// when first needed, cached with the secret) and, for those that read the table, the
// card reader on the applications table (their grant: GetItem of named items only).
export interface CardRuntime {
  readonly secrets: SecretsLoader;
  readonly keys: () => Promise<CardKeys>;
  readonly cards: () => CardReader;
}

export function cardRuntime(processEnv: NodeJS.ProcessEnv = process.env): CardRuntime {
  const env = parseEnv(baseEnvSchema, processEnv);
  const secrets = makeSecretsLoader(parseEnv(secretsEnvSchema, processEnv));
  let cards: CardReader | undefined;
  return {
    secrets,
    keys: async () => cardKeysOf(await secrets.cardKey()),
    cards: () => (cards ??= makeCardReader(makeDocumentClient(env), tableName('applications', processEnv))),
  };
}
