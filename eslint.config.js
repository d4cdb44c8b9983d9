import { readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The boundaries the layout promises (README, Layout), held by the lint; test/support/
// lint-zones.test.ts plants a forbidden import in each zone and expects the lint to fail.
// `import()` expressions are not checked (no-restricted-imports reads static imports only).
const forbid = {
  sdk: {
    regex: '^(@aws-sdk|@aws-lambda-powertools|@middy|@smithy)/|^(aws-sdk|aws-lambda)$',
    message: 'Plain rules and contracts: no AWS SDK or Lambda runtime code here (it belongs in lambdas/).',
  },
  cdk: {
    regex: '^(aws-cdk-lib|constructs|cdk-nag)(/|$)',
    message: 'The CDK stays in lib/ and bin/: a Lambda bundle or a shared module must not carry it.',
  },
  react: {
    regex: '^(react|react-dom|react-router|react-router-dom|react-i18next|i18next)(/|$)|^@nivo/',
    message: 'Plain rules and contracts: no React here (it belongs in web/).',
  },
  nodeScheme: { regex: '^node:', message: 'Plain rules and contracts run in the browser too: no Node built-ins.' },
  /**
   * The SDK's clients in a function: each one is its middleware stack, evaluated at every
   * cold start (issue 16). Types only; calls go through lambdas/lib/aws-json.ts and db.ts.
   */
  sdkClients: {
    regex:
      '^@aws-sdk/(client-[a-z0-9-]+|lib-dynamodb|credential-providers)$|^@aws-lambda-powertools/(parameters|idempotency/dynamodb)(/|$)',
    allowTypeImports: true,
    message:
      "Functions call AWS through lambdas/lib/aws-json.ts and lambdas/lib/db.ts, not the SDK's clients (a cold start pays for each one). Type imports are fine.",
  },
};
const nodeBuiltinPaths = builtinModules
  .filter((name) => !name.startsWith('_'))
  .map((name) => ({ name, message: forbid.nodeScheme.message }));
const noProcessEnv = {
  'no-restricted-globals': [
    'error',
    { name: 'process', message: 'Plain rules and contracts read no process or environment: take values as arguments.' },
  ],
  'no-restricted-properties': [
    'error',
    {
      object: 'process',
      property: 'env',
      message: 'Parse the environment where it enters (lambdas/lib/env.ts), not here.',
    },
  ],
};
/** Relative imports that leave a shared folder for one of the folders that depend on it. */
const outwardOf = (folders) => ({
  regex: `^(\\.\\./)+(${folders.join('|')})(/|$)`,
  caseSensitive: true,
  message: 'Dependencies point one way: lambdas/, web/, lib/ and local/ import rules/ and contracts/, never back.',
});
/**
 * A folder others import (rules/, contracts/): no SDK, CDK, React, Node built-in or
 * process.env, and no import of a folder that depends on it. Its tests run in Node and may.
 */
const sharedZone = (folder, dependents) => ({
  files: [`${folder}/**/*.{ts,tsx}`],
  ignores: [`${folder}/**/*.test.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths: nodeBuiltinPaths,
        patterns: [forbid.sdk, forbid.cdk, forbid.react, forbid.nodeScheme, outwardOf(dependents)],
      },
    ],
    ...noProcessEnv,
  },
});
const features = readdirSync(new URL('./web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
/** Depth of a file below lambdas/ -> how many `../` reach the repository root. */
const lambdaDepths = [0, 1, 2, 3];

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'cdk.out',
      'web/dist',
      '.local',
      '.cognito',
      '.test-artifacts',
      '.bench',
      '**/*.js',
      '!eslint.config.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'error',
      // Handlers and ports are async by contract even when one implementation is not.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['lambdas/**/*.ts'],
    ignores: ['lambdas/**/*.test.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    // No zod where a visitor or a cold start pays for it: the functions' and the SPA's
    // schemas are valibot's (issue 16: zod's classic API cost each function ~12 ms of CPU
    // at import and /admin ~24 KB gzip). zod stays in the CDK app, local/, ops/ and bench/.
    files: ['lambdas/**/*.ts', 'rules/**/*.ts', 'contracts/**/*.ts', 'web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value=/^zod(\\/|$)/][importKind!='type']",
          message:
            'Use valibot here (rules/schema.ts keeps the field codes): zod would be in a Lambda bundle or the SPA.',
        },
      ],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  // rules/: the product's pure rules, bundled by both web/ and lambdas/.
  sharedZone('rules', ['lambdas', 'web', 'lib', 'local', 'ops', 'bin', 'bench', 'test', 'contracts']),
  // contracts/: what the CDK app, the Lambda code and the local stand-ins agree on (in every function's bundle).
  sharedZone('contracts', ['lambdas', 'web', 'lib', 'local', 'ops', 'bin', 'bench', 'test']),
  // lambdas/ never imports the CDK app's lib/ (what both need is in contracts/), nor the CDK
  // itself, nor an AWS SDK client (types only). `lambdas/lib/` is the functions' own: the zone counts the `../` that reach the root.
  ...lambdaDepths.map((depth) => ({
    files: [`lambdas/${'*/'.repeat(depth)}*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            forbid.cdk,
            forbid.sdkClients,
            {
              regex: `^(\\.\\./){${depth + 1},}lib(/|$)`,
              caseSensitive: true,
              message: "Lambda code does not import the CDK app's lib/: move what both need to contracts/.",
            },
          ],
        },
      ],
    },
  })),
  // A feature does not import another feature: shared code lives in web/src/components, lib, ...
  ...features.map((feature) => ({
    files: [`web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(features/)?(${features.filter((other) => other !== feature).join('|')})(/|$)`,
              caseSensitive: true,
              message: `Features do not import each other (${feature} here): move what both need to web/src/components or web/src/lib.`,
            },
          ],
        },
      ],
    },
  })),
  {
    files: ['eslint.config.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);
