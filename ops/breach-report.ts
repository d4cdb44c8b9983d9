// `npm run breach:report -- --from <time> --to <time> [--tables a,b] [--out FILE] [--stage NAME]`:
// who a personal-data breach touched (issue 21; docs/RUNBOOK.md "Personal-data breach").
// Prints, per table, the items read and found exposed, and the affected people by district
// and in all: what the Data Protection Board's report asks for. Writes the numbers to
// notify (with district and language, for the notice) to a new file that only the
// operator can read. No number, name or other personal data is printed.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { toCsv } from '../rules/csv';
import { breachTables, countByDistrict, findBreachAffected, type BreachFindings } from './breach-scan';
import { parseCommand, runCommand } from './cli';
import { resolveTarget, targetDb } from './target';

const usage = `Usage:
  npm run breach:report -- --from TIME --to TIME [--tables ${breachTables.join(',')}] [--out FILE] [--stage NAME]
Times are ISO 8601 with a zone (2026-11-20T18:00:00+05:30). Without --tables every table
holding personal data is read; without --stage the local stack started by \`npm start\`.
  --out FILE   where the numbers to notify go (default breach-notify-<now>.csv); never overwritten`;

const time = z.iso.datetime({ offset: true }).transform((s) => new Date(s));
const argsSchema = z
  .object({
    from: time,
    to: time,
    tables: z
      .string()
      .transform((s) => s.split(',').map((t) => t.trim()))
      .pipe(z.array(z.enum(breachTables)).min(1))
      .optional(),
    out: z.string().min(1).optional(),
    stage: z.string().min(1).optional(),
  })
  .refine((a) => a.from.getTime() <= a.to.getTime(), { message: '--from must not be after --to', path: ['from'] });
export type BreachArgs = z.infer<typeof argsSchema>;

/** The terminal's report: counts only. */
export function formatFindings(findings: BreachFindings, args: BreachArgs, file: string): string {
  const lines = [
    `Breach window ${args.from.toISOString()} to ${args.to.toISOString()}`,
    'Table          items read   exposed',
    ...Object.entries(findings.perTable).map(
      ([table, c]) => `${table.padEnd(14)} ${String(c.read).padStart(10)} ${String(c.exposed).padStart(9)}`,
    ),
    '',
    `People to notify: ${findings.people.size}` +
      (findings.erasedSince > 0
        ? ` (and ${findings.erasedSince} exposed applications erased since: nobody to notify)`
        : ''),
    'By district:',
    ...countByDistrict(findings.people.values()).map(
      ([district, count]) => `  ${(district ?? '(never applied: a code or a limit only)').padEnd(44)} ${count}`,
    ),
    '',
    `Numbers to notify written to ${file} (readable by you only). Keep it off shared drives; delete it once notified.`,
  ];
  return `${lines.join('\n')}\n`;
}

/** The notification list: one row a number, by number. Written once (`wx`), mode 0600. */
export function writeNotifyList(findings: BreachFindings, file: string): void {
  const rows = [...findings.people.values()]
    .sort((a, b) => a.phone.localeCompare(b.phone))
    .map((p) => ({
      phone_number: p.phone,
      district: p.district ?? '',
      language: p.language ?? '',
      tables: [...p.tables].sort().join(' '),
    }));
  writeFileSync(file, toCsv(rows, ['phone_number', 'district', 'language', 'tables']), { flag: 'wx', mode: 0o600 });
}

export async function main(argv = process.argv.slice(2), out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const parsed = parseCommand(argsSchema, {
    argv,
    usage,
    options: {
      from: { type: 'string' },
      to: { type: 'string' },
      tables: { type: 'string' },
      out: { type: 'string' },
      stage: { type: 'string' },
    },
  });
  if ('exit' in parsed) return parsed.exit;
  const { args } = parsed;
  const target = await resolveTarget(args.stage);
  const findings = await findBreachAffected(targetDb(target), target.tableNames, args.tables ?? breachTables, args);
  const file = resolve(args.out ?? `breach-notify-${new Date().toISOString().replace(/[:.]/g, '-')}.csv`);
  writeNotifyList(findings, file);
  out.write(formatFindings(findings, args, file));
  return 0;
}

runCommand(import.meta.url, () => main());
