import { type Db } from './db';
import type { TableKey } from '../../contracts/table-definitions';
import { makeDocumentClient } from './dynamo';
import { baseEnvSchema, parseEnv, tableName } from './env';
import { tracedDb } from './tracing';

// What the handlers that only use DynamoDB are wired from: one DynamoDB client and the names of the tables
// the handler asks for, which must be the ones its route is granted (lib/api-routes.ts):
// the function's environment carries exactly those (test/infra/handler-wiring.test.ts).
// Its calls are traced: only staff and background functions are wired from it (lambdas/lib/tracing.ts).
export interface DbRuntime<K extends TableKey> {
  readonly db: Db;
  readonly tables: { readonly [T in K]: string };
}

export function dbRuntime<K extends TableKey>(...keys: readonly K[]): DbRuntime<K> {
  const tables = Object.fromEntries(keys.map((key) => [key, tableName(key)])) as { [T in K]: string };
  return { db: tracedDb(makeDocumentClient(parseEnv(baseEnvSchema))), tables };
}
