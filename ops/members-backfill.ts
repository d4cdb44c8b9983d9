// `npm run members:backfill [-- --stage NAME]`: gives every approved application the member
// number, card and referral code it lacks (members approved before the release that issues
// them: lambdas/adapters/membership-backfill.ts). Safe to run again: it does nothing to an
// application that has them. The report's Members tile follows through the stream.
import { z } from 'zod';
import { backfillMembership } from '../lambdas/adapters/membership-backfill';
import { parseCommand, runCommand } from './cli';
import { resolveTarget, targetDb } from './target';

const usage = `Usage:
  npm run members:backfill [-- --stage NAME]
Without --stage the command acts on the local stack started by \`npm start\`.`;

const argsSchema = z.object({ stage: z.string().min(1).optional() });

export async function main(argv = process.argv.slice(2), out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const parsed = parseCommand(argsSchema, { argv, usage, options: { stage: { type: 'string' } } });
  if ('exit' in parsed) return parsed.exit;
  const target = await resolveTarget(parsed.args.stage);
  const { applications, audit, campaigns } = target.tableNames;
  const result = await backfillMembership(targetDb(target), { applications, audit, campaigns });
  out.write(
    `${target.name}: ${result.issued} approved applications given what they lacked` +
      (result.changed > 0 ? `; ${result.changed} changed while it ran (run it again)` : '') +
      '\n',
  );
  return 0;
}

runCommand(import.meta.url, main);
