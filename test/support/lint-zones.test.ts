import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The boundaries of eslint.config.js, proven on planted files: in each zone a forbidden
// import makes the lint fail, an allowed one does not. The files need not exist: ESLint
// picks the zone by path. Only the no-restricted-* rules run, without type information
// (the type-aware rules would build the whole program for a few lines).

const root = resolve(import.meta.dirname, '../..');
let eslint: ESLint;

beforeAll(async () => {
  eslint = new ESLint({
    cwd: root,
    overrideConfigFile: resolve(root, 'eslint.config.js'),
    overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
    ruleFilter: ({ ruleId }) => ruleId.startsWith('no-restricted-'),
  });
  // The first lint loads the config, the parser and the plugins (seconds on a busy
  // machine): done here, so that no test's own time includes it.
  await eslint.lintText('export {};\n', { filePath: resolve(root, 'rules/warm-up.ts') });
}, 60_000);

/** The rules that fire on `code` as the file at `path` (relative to the root). */
async function firing(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\n`, { filePath: resolve(root, path) });
  expect(result?.messages.filter((m) => m.fatal)).toEqual([]);
  return (result?.messages ?? []).map((m) => m.ruleId ?? 'none');
}

describe('rules/ imports no SDK, React, Node built-in or process.env', () => {
  const file = 'rules/planted.ts';
  it.each([
    ['the AWS SDK', "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nexport { DynamoDBClient };"],
    ['Powertools', "import { Logger } from '@aws-lambda-powertools/logger';\nexport { Logger };"],
    ['React', "import { useState } from 'react';\nexport { useState };"],
    ['a node: built-in', "import { readFileSync } from 'node:fs';\nexport { readFileSync };"],
    ['a bare built-in', "import { join } from 'path';\nexport { join };"],
    ['a folder that depends on it', "import { tables } from '../contracts/table-definitions';\nexport { tables };"],
    ['lambdas/', "import { tableName } from '../lambdas/lib/env';\nexport { tableName };"],
  ])('fails on %s', async (_what, code) => {
    expect(await firing(file, code)).toEqual(['no-restricted-imports']);
  });

  it('fails on process.env', async () => {
    expect(await firing(file, 'export const stage = process.env.STAGE;')).toContain('no-restricted-properties');
  });

  it('passes its own imports and valibot', async () => {
    const code =
      "import * as v from 'valibot';\nimport { istDay } from './ist';\nexport const day = v.parse(v.string(), istDay(new Date()));";
    expect(await firing(file, code)).toEqual([]);
  });
});

describe('no zod where a visitor or a cold start pays for it', () => {
  it.each(['rules/planted.ts', 'contracts/planted.ts', 'lambdas/handlers/planted.ts', 'web/src/lib/planted.ts'])(
    'fails on zod in %s',
    async (file) => {
      expect(await firing(file, "import * as z from 'zod';\nexport const id = z.string();")).toEqual([
        'no-restricted-syntax',
      ]);
    },
  );

  it('passes zod in the CDK app and the local stack', async () => {
    const code = "import * as z from 'zod';\nexport const id = z.string();";
    expect(await firing('lib/planted.ts', code)).toEqual([]);
    expect(await firing('local/planted.ts', code)).toEqual([]);
  });
});

describe('contracts/ imports no CDK, SDK or process.env', () => {
  it.each([
    ['the CDK', "import { Stack } from 'aws-cdk-lib';\nexport { Stack };", 'no-restricted-imports'],
    ['the AWS SDK', "import { SQSClient } from '@aws-sdk/client-sqs';\nexport { SQSClient };", 'no-restricted-imports'],
    ['lib/', "import { routes } from '../lib/api-routes';\nexport { routes };", 'no-restricted-imports'],
    ['process.env', 'export const stage = process.env.STAGE;', 'no-restricted-properties'],
  ])('fails on %s', async (_what, code, rule) => {
    expect(await firing('contracts/planted.ts', code)).toContain(rule);
  });

  it('passes its own imports', async () => {
    expect(await firing('contracts/planted.ts', "export { tables } from './table-definitions';")).toEqual([]);
  });
});

describe("lambdas/ imports nothing of the CDK app's lib/", () => {
  it.each([
    ['lambdas/planted.ts', '../lib/functions'],
    ['lambdas/handlers/planted.ts', '../../lib/api-routes'],
    ['lambdas/lib/planted.ts', '../../lib/functions'],
    ['lambdas/adapters/planted.ts', '../../lib/stages'],
    ['lambdas/adapters/part/planted.ts', '../../../lib/placeholders'],
  ])('fails in %s on %s', async (path, source) => {
    expect(await firing(path, `import { x } from '${source}';\nexport { x };`)).toEqual(['no-restricted-imports']);
  });

  it('fails on the CDK itself', async () => {
    const code = "import { Duration } from 'aws-cdk-lib';\nexport { Duration };";
    expect(await firing('lambdas/handlers/planted.ts', code)).toEqual(['no-restricted-imports']);
  });

  it.each([
    ['the DynamoDB client', "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';"],
    ['the document client', "import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';"],
    ['the SQS client', "import { SQSClient } from '@aws-sdk/client-sqs';"],
    [
      'the Cognito client',
      "import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';",
    ],
    ['Powertools parameters', "import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';"],
    [
      "Powertools' DynamoDB idempotency layer",
      "import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';",
    ],
  ])('fails on %s (a cold start pays for it)', async (_what, code) => {
    expect(await firing('lambdas/adapters/planted.ts', `${code}\nexport const x = 1;`)).toEqual([
      'no-restricted-imports',
    ]);
  });

  it("passes the SDK's types, and the transport", async () => {
    const code = [
      "import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';",
      "import { type AttributeType } from '@aws-sdk/client-cognito-identity-provider';",
      "import { GetCommand } from '../lib/db';",
      'export type Q = QueryCommandInput | AttributeType;',
      'export { GetCommand };',
    ].join('\n');
    expect(await firing('lambdas/adapters/planted.ts', code)).toEqual([]);
  });

  it('passes its own lib/, contracts/ and rules/', async () => {
    const code = [
      "import { tableName } from '../lib/env';",
      "import { tables } from '../../contracts/table-definitions';",
      "import { istDay } from '../../rules/ist';",
      'export { tableName, tables, istDay };',
    ].join('\n');
    expect(await firing('lambdas/handlers/planted.ts', code)).toEqual([]);
    expect(await firing('lambdas/lib/planted.ts', "import { tableName } from './env';\nexport { tableName };")).toEqual(
      [],
    );
  });
});

describe('a feature imports no other feature', () => {
  const features = readdirSync(resolve(root, 'web/src/features'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const [one, other] = features as [string, string];

  it('has two features to try', () => {
    expect(features.length).toBeGreaterThanOrEqual(2);
  });

  it.each([
    ['components/planted.tsx', `../../${other}/components/thing`],
    ['planted.ts', `../${other}/api/thing`],
    ['hooks/planted.ts', `../../../features/${other}/hooks/thing`],
  ])('fails in %s on %s', async (path, source) => {
    const code = `import { thing } from '${source}';\nexport { thing };`;
    expect(await firing(`web/src/features/${one}/${path}`, code)).toEqual(['no-restricted-imports']);
  });

  it('passes its own files and the shared components and lib', async () => {
    const code = [
      "import { thing } from '../api/thing';",
      "import { ApiError } from '../../../lib/api-client';",
      "import { Shell } from '../../../components/shell';",
      `import { same } from '../../${one}/hooks/same';`,
      'export { thing, ApiError, Shell, same };',
    ].join('\n');
    expect(await firing(`web/src/features/${one}/components/planted.tsx`, code)).toEqual([]);
  });
});
