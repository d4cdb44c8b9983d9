// `npm run rollups:rebuild [-- --stage NAME] [--force] [--keep-previous]`: recomputes the
// report rollups from the applications table (after an import, or to repair drift),
// against the running local stack or a deployed stage. The stream keeps running: the
// rebuild writes a new generation and switches reports to it when complete
// (lambdas/lib/rollups-rebuild.ts).
import { z } from 'zod';
import { rollupsFenceSeconds } from '../contracts/rollups-fence';
import { rebuildRollups, type RebuildResult, rebuildStore } from '../lambdas/lib/rollups-rebuild';
import { resolveTarget, targetDb } from './target';
import { parseCommand, runCommand } from './cli';

const usage = `Usage:
  npm run rollups:rebuild [-- --stage NAME] [--force] [--keep-previous] [--segments N]
Without --stage the command acts on the local stack started by \`npm start\`.
  --force          take over from a rebuild that was interrupted
  --keep-previous  keep the previous generation's items (default: deleted after the switch)
  --segments N     parallel scan segments (default 8)`;

const argsSchema = z.object({
  stage: z.string().min(1).optional(),
  force: z.boolean().default(false),
  'keep-previous': z.boolean().default(false),
  segments: z.coerce.number().int().min(1).max(64).default(8),
});

export function summary(result: RebuildResult, target: string): string {
  return [
    `Rebuilt the report rollups of ${target} in ${(result.ms / 1000).toFixed(1)} s:`,
    `  ${result.scanned} applications read, ${result.written + result.skipped} counted`,
    `  (${result.skipped} already brought in by the stream while the rebuild ran)`,
    `  ${result.dayRows} day rows; reports now read generation ${result.generation}`,
    result.deletedItems > 0
      ? `  ${result.deletedItems} items of generation ${result.previous} deleted`
      : `  generation ${result.previous} kept`,
  ].join('\n');
}

async function main(): Promise<number> {
  const parsed = parseCommand(argsSchema, {
    usage,
    options: {
      stage: { type: 'string' },
      force: { type: 'boolean' },
      'keep-previous': { type: 'boolean' },
      segments: { type: 'string' },
    },
  });
  if ('exit' in parsed) return parsed.exit;
  const { args } = parsed;
  const target = await resolveTarget(args.stage);
  const db = targetDb(target);
  const result = await rebuildRollups(
    {
      store: rebuildStore(db, target.tableNames.rollups),
      db,
      applicationsTable: target.tableNames.applications,
      clock: () => new Date(),
      log: (line) => process.stdout.write(`${line}\n`),
    },
    {
      force: args.force,
      keepPrevious: args['keep-previous'],
      segments: args.segments,
      // Deployed consumers may run a whole invocation on an old META; the local one, seconds.
      fenceMs: (target.local ? 5 : rollupsFenceSeconds) * 1000,
    },
  );
  process.stdout.write(`${summary(result, target.name)}\n`);
  return 0;
}

runCommand(import.meta.url, main);
