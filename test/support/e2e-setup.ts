import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../local/dynamodb';
import { artifactsDir, startStackProcess } from './local-stack-process';
import { buildWeb } from './web-build';

/**
 * The SPA every stack of the tier serves: `npm test` builds it once for its browser
 * processes and passes it in LOCAL_WEB_DIST; a tier run alone builds its own, in a folder
 * per run, so that a second run of the tier cannot empty the one a first is serving.
 */
const givenWebDist = process.env.LOCAL_WEB_DIST;
const webDist = givenWebDist ?? join(artifactsDir, `web-dist-${process.pid}`);
/** The shared stack's name, so its log (.test-artifacts/<name>.log): one per browser process of `npm test`. */
const stackName = process.env.E2E_STACK_NAME ?? 'e2e-stack';

// The end-to-end tier runs the product as a newcomer does: `npm start`'s own entry point
// in a child process, on a free port, with its data in a temporary folder, but serving the
// SPA as built for a deployment (LOCAL_WEB_DIST), not through Vite's dev server: a
// page then loads a few minified files instead of hundreds of modules, each test's fresh
// browser context included, which on two cores made the tier several times slower.
// Everything the stack prints goes to .test-artifacts/<stackName>.log (tests scan it). Files
// that need a stack with other settings start their own the same way
// (./local-stack-process), and inherit LOCAL_WEB_DIST and LOCAL_DYNAMODB_ENDPOINT (one
// DynamoDB Local for the tier: a JVM each was about 8 s of a loaded core) from this process.
export default async function setup(project: TestProject) {
  if (!givenWebDist) await buildWeb(webDist);
  process.env.LOCAL_WEB_DIST = webDist;
  // One DynamoDB Local for every stack of the tier (each makes its own tables in it).
  const dynamo = await startDynamoDbLocal();
  process.env.LOCAL_DYNAMODB_ENDPOINT = dynamo.endpoint;
  const stack = await startStackProcess(stackName);
  project.provide('appUrl', stack.url);
  project.provide('stackLogFile', stack.logFile);
  // Operator commands (npm run staff / import) find the stack through ${dataDir}/endpoints.json.
  project.provide('localDataDir', stack.dataDir);
  return async () => {
    await stack.stop();
    await dynamo.stop();
    if (!givenWebDist) rmSync(webDist, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    appUrl: string;
    stackLogFile: string;
    localDataDir: string;
  }
}
