// `npm run import -- --file old.csv [--stage NAME]`: loads applications exported from the
// first version. Every row is checked (rules/legacy-import.ts); rejected rows are listed
// with their line and reasons; valid rows keep their id, status and submitted_at. Running
// it twice creates nothing new: a row whose id is already stored is counted as present.
import { createReadStream } from 'node:fs';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse';
import { type ApplicationItem, guardItem, indexKeys } from '../lambdas/adapters/application-items';
import { type ApplicationRepository, makeApplicationRepository } from '../lambdas/adapters/applications';
import { makeCampaignLookup } from '../lambdas/adapters/campaigns';
import { legacyColumns, type LegacyApplication, parseLegacyRow } from '../rules/legacy-import';
import type { Db } from '../lambdas/lib/db';
import { resolveTarget, targetDb } from './target';
import { runCommand } from './cli';

export interface ImportSummary {
  read: number;
  imported: number;
  alreadyPresent: number;
  rejected: { line: number; reasons: string[] }[];
}

export interface CsvRow {
  readonly line: number;
  readonly record: Record<string, string>;
}

/** CSV records with the line each starts on; UTF-8 with or without a byte-order mark. */
export async function* readCsv(path: string): AsyncGenerator<CsvRow> {
  const parser = createReadStream(path).pipe(
    parse({
      bom: true,
      columns: (header: string[]) => header.map((h) => h.trim()),
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
    }),
  );
  for await (const { record, info } of parser as AsyncIterable<{
    record: Record<string, string>;
    info: { lines: number };
  }>) {
    yield { line: info.lines, record };
  }
}

/**
 * What an imported row stores: the number's guard and the application with its index
 * keys. (`npm run bench -- dynamo` writes the same items in bulk for its larger size.)
 */
export function importedItems(app: LegacyApplication): {
  guard: Record<string, unknown>;
  application: ApplicationItem;
} {
  return { guard: guardItem(app), application: { ...app, ...indexKeys(app), source: 'import' } };
}

type WriteOutcome =
  | { kind: 'imported' }
  | { kind: 'present' }
  | { kind: 'phone-taken'; by: string }
  | { kind: 'no-campaign'; code: string };

/**
 * A row's `campaign` code as the campaign's id (read once per code). Whatever the
 * campaign's status or dates: the application was made when it ran. Undefined: no campaign has it.
 */
function campaignResolver(db: Db, campaignsTable: string | undefined) {
  const lookup = campaignsTable ? makeCampaignLookup(db, campaignsTable) : undefined;
  const cache = new Map<string, Promise<string | undefined>>();
  return (code: string): Promise<string | undefined> => {
    let id = cache.get(code);
    if (!id) {
      id = lookup ? lookup.byCode(code).then((c) => c?.id) : Promise.resolve(undefined);
      cache.set(code, id);
    }
    return id;
  };
}

/** Through the submit handler's create transaction (lambdas/adapters/applications.ts), with no token to spend. */
async function writeOne(
  applications: ApplicationRepository,
  campaignOf: (code: string) => Promise<string | undefined>,
  app: LegacyApplication,
): Promise<WriteOutcome> {
  const campaignId = app.campaign_code ? await campaignOf(app.campaign_code) : undefined;
  if (app.campaign_code && !campaignId) return { kind: 'no-campaign', code: app.campaign_code };
  const item = importedItems(app).application;
  const result = await applications.insert(campaignId ? { ...item, campaign_id: campaignId } : item);
  if (result.kind === 'already-registered') return { kind: 'phone-taken', by: result.by ?? 'another application' };
  if (result.kind === 'present') return { kind: 'present' };
  if (result.kind === 'created') return { kind: 'imported' };
  throw new Error(`Unexpected outcome ${result.kind} for application ${app.id}`);
}

export async function importApplications(options: {
  db: Db;
  tableName: string;
  /** The campaigns table, for the optional `campaign` column (rules/legacy-import.ts sourceColumns). */
  campaignsTable?: string;
  rows: AsyncIterable<CsvRow>;
  concurrency?: number;
  onProgress?: (summary: ImportSummary) => void;
}): Promise<ImportSummary> {
  const summary: ImportSummary = { read: 0, imported: 0, alreadyPresent: 0, rejected: [] };
  const seenIds = new Map<string, number>();
  const seenPhones = new Map<string, number>();
  const inFlight = new Set<Promise<void>>();
  const concurrency = options.concurrency ?? 16;
  const applications = makeApplicationRepository(options.db, options.tableName);
  const campaignOf = campaignResolver(options.db, options.campaignsTable);
  let checkedHeader = false;

  for await (const { line, record } of options.rows) {
    if (!checkedHeader) {
      const missing = legacyColumns.filter(
        (c) => !(c in record) && ['id', 'phone_number', 'name', 'submitted_at'].includes(c),
      );
      if (missing.length > 0)
        throw new Error(
          `The file has no column ${missing.join(', ')}: expected the columns of the first version's export.`,
        );
      checkedHeader = true;
    }
    summary.read += 1;
    const parsed = parseLegacyRow(record);
    if (!parsed.ok) {
      summary.rejected.push({ line, reasons: parsed.reasons });
      continue;
    }
    const app = parsed.value;
    const sameId = seenIds.get(app.id);
    const samePhone = seenPhones.get(app.phone_number);
    if (sameId !== undefined || samePhone !== undefined) {
      summary.rejected.push({
        line,
        reasons: [sameId !== undefined ? `id repeats line ${sameId}` : `phone_number repeats line ${samePhone}`],
      });
      continue;
    }
    seenIds.set(app.id, line);
    seenPhones.set(app.phone_number, line);

    const task = writeOne(applications, campaignOf, app).then((outcome) => {
      if (outcome.kind === 'imported') summary.imported += 1;
      else if (outcome.kind === 'present') summary.alreadyPresent += 1;
      else if (outcome.kind === 'no-campaign') {
        summary.rejected.push({ line, reasons: [`campaign "${outcome.code}" names no campaign`] });
      } else summary.rejected.push({ line, reasons: [`phone_number already has application ${outcome.by}`] });
      if ((summary.imported + summary.alreadyPresent) % 1000 === 0) options.onProgress?.(summary);
    });
    inFlight.add(task);
    void task.finally(() => inFlight.delete(task));
    if (inFlight.size >= concurrency) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  summary.rejected.sort((a, b) => a.line - b.line);
  return summary;
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { file: { type: 'string' }, stage: { type: 'string' } } });
  if (!values.file) {
    process.stderr.write('Usage: npm run import -- --file old.csv [--stage NAME]\n');
    return 2;
  }
  const target = await resolveTarget(values.stage);
  const db = targetDb(target);
  const started = Date.now();
  const progress = (s: ImportSummary) => {
    const rate = Math.round((s.imported + s.alreadyPresent) / ((Date.now() - started) / 1000));
    process.stderr.write(
      `\r${s.read.toLocaleString('en-IN')} rows read, ${s.imported.toLocaleString('en-IN')} imported (${rate}/s)   `,
    );
  };
  const summary = await importApplications({
    db,
    tableName: target.tableNames.applications,
    campaignsTable: target.tableNames.campaigns,
    rows: readCsv(values.file),
    onProgress: progress,
  });
  process.stderr.write('\n');
  for (const r of summary.rejected) process.stdout.write(`line ${r.line}: ${r.reasons.join('; ')}\n`);
  process.stdout.write(
    `\n${summary.read} rows read into ${target.name}: ${summary.imported} imported, ${summary.alreadyPresent} already present, ${summary.rejected.length} rejected (${((Date.now() - started) / 1000).toFixed(1)} s).\n`,
  );
  return 0;
}

runCommand(import.meta.url, main);
