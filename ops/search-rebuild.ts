// `npm run search:rebuild [-- --stage NAME] [--segments N]`: indexes for the dashboard's
// search every application the search index lacks (issue 18), against the running local
// stack or a deployed stage. The stream consumer keeps the index from then on; an
// application it has indexed already is left alone, so running this again changes nothing.
// Needed where applications were stored without the stream's consumer seeing them:
// a stage whose data predates the index, or a table restored from a backup.
import { z } from 'zod';
import { makeSearchIndex } from '../lambdas/adapters/search-index';
import { rebuildSearchIndex } from '../lambdas/lib/search-rebuild';
import { parseCommand, runCommand } from './cli';
import { resolveTarget, targetDb } from './target';

const usage = `Usage:
  npm run search:rebuild [-- --stage NAME] [--segments N]
Without --stage the command acts on the local stack started by \`npm start\`.
  --segments N     parallel scan segments (default 4)`;

const argsSchema = z.object({
  stage: z.string().min(1).optional(),
  segments: z.coerce.number().int().min(1).max(64).default(4),
});

async function main(): Promise<number> {
  const parsed = parseCommand(argsSchema, {
    usage,
    options: { stage: { type: 'string' }, segments: { type: 'string' } },
  });
  if ('exit' in parsed) return parsed.exit;
  const target = await resolveTarget(parsed.args.stage);
  const db = targetDb(target);
  const started = Date.now();
  const index = makeSearchIndex(db, target.tableNames.search);
  const result = await rebuildSearchIndex(db, target.tableNames.applications, index, {
    segments: parsed.args.segments,
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    `Search index of ${target.name}: ${result.scanned} applications read in ${seconds} s, ` +
      `${result.indexed} indexed, ${result.skipped} indexed already.\n`,
  );
  return 0;
}

runCommand(import.meta.url, main);
