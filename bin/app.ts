import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { addMembershipStacks, addNagChecks } from '../lib/constructs/membership-stacks';
import { projectRoot } from '../lib/constructs/project-function';
import { loadStageConfig } from '../lib/stages';

// `npx cdk synth|deploy -c stage=dev|staging|prod`: one independent environment per stage.
const app = new App();
const config = loadStageConfig(app.node.tryGetContext('stage') ?? 'dev');

const webAssetDir = path.join(projectRoot, 'web', 'dist');
if (!existsSync(path.join(webAssetDir, 'index.html'))) {
  // The App stack uploads the built SPA; build it first if nobody has.
  execSync('npm run build:web', { cwd: projectRoot, stdio: 'inherit' });
}

addMembershipStacks(app, config, webAssetDir);
addNagChecks(app);
