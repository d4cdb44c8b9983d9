import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { artifactsDir, startStackProcess } from './local-stack-process';

export { artifactsDir };

// The end-to-end tier runs the product exactly as a newcomer does: `npm start`'s own
// entry point in a child process, on a free port, with its data in a temporary folder.
// Everything it prints goes to .test-artifacts/e2e-stack.log (tests scan it). Files that
// need a stack with other settings start their own the same way (./local-stack-process).
export default async function setup(project: TestProject) {
  const stack = await startStackProcess('e2e-stack');
  project.provide('appUrl', stack.url);
  project.provide('stackLogFile', join(artifactsDir, 'e2e-stack.log'));
  // Operator commands (npm run staff / import) find the stack through ${dataDir}/endpoints.json.
  project.provide('localDataDir', stack.dataDir);
  return () => stack.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    appUrl: string;
    stackLogFile: string;
    localDataDir: string;
  }
}
