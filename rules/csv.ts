// CSV for staff exports (dashboard and reports): what a spreadsheet program opens
// safely. UTF-8 with a byte-order mark (so that Excel shows Tamil), every cell quoted
// with inner quotes doubled, CRLF line ends (RFC 4180), and cells that a spreadsheet
// would run as a formula neutralised with a leading apostrophe (OWASP "CSV injection").
// Times are written in IST with their offset, as every screen shows them, and phone
// numbers as text a spreadsheet cannot take for a number.

import { istIso } from './ist';

export const CSV_BOM = '\uFEFF';
const CSV_EOL = '\r\n';

/**
 * The spec's export columns first (section 7), then every other field of an application
 * (section 3), then where the applicant came from (issue 19: empty when not known), then
 * the member number (issue 20: empty until the first approval).
 */
export const applicationExportColumns = [
  'id',
  'name',
  'phone_number',
  'email',
  'revenue_district',
  'assembly_constituency',
  'application_status',
  'submitted_at',
  'alternate_phone_number',
  'gender',
  'date_of_birth',
  'education',
  'specialization',
  'occupation',
  'address',
  'is_already_member',
  'want_to_volunteer',
  'want_to_join_and_volunteer',
  'motivation',
  'updated_at',
  'campaign_code',
  'campaign_id',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'referrer_id',
  'member_number',
] as const;

// A spreadsheet treats a cell starting with one of these as a formula (tab and CR too,
// which some programs strip before looking at the next character). Spaces, control and
// format characters (a zero-width space, a bidi mark) before the trigger do not hide it:
// some programs trim them, and the reader does not see them.
const formulaStart = /^[\p{Z}\p{Cc}\p{Cf}\s]*[=+\-@]|^[\t\r]/u;

/** One cell: text as is, booleans and numbers in their plain form, missing values empty. */
export function csvCell(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') text = String(value);
  else text = JSON.stringify(value);
  if (formulaStart.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}

/** One line, with its CRLF. */
export function csvLine(cells: readonly unknown[]): string {
  return cells.map(csvCell).join(',') + CSV_EOL;
}

const timeColumns = new Set(['submitted_at', 'updated_at']);
const phoneColumns = new Set(['phone_number', 'alternate_phone_number']);

/**
 * '919876543210' -> '91 98765 43210', '9876543210' -> '98765 43210'. Twelve digits in a
 * cell are a number to a spreadsheet (shown as 9.19877E+11, the last digits lost on
 * save); with the spaces it stays text, and reads as the screens show it. A leading `+`
 * would make it a formula. An import strips the spaces again.
 */
export function phoneAsText(value: string): string {
  const m = /^(91)?(\d{5})(\d{5})$/.exec(value);
  return m ? [m[1], m[2], m[3]].filter(Boolean).join(' ') : value;
}

/** A cell of an exported record: times in IST with their offset, numbers as text, the rest as is. */
function exportValue(column: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (timeColumns.has(column)) return istIso(value) ?? value;
  if (phoneColumns.has(column)) return phoneAsText(value);
  return value;
}

/** The line of one record, in the order of the columns. */
export function csvRecordLine<C extends string>(record: Partial<Record<C, unknown>>, columns: readonly C[]): string {
  return csvLine(columns.map((column) => exportValue(column, record[column])));
}

/**
 * The parts of a whole file, ready for `new Blob(parts)`: the byte-order mark and the
 * header, then one string per record (no concatenation into one huge string).
 */
export function csvParts<C extends string>(
  records: Iterable<Partial<Record<C, unknown>>>,
  columns: readonly C[],
): string[] {
  const parts = [CSV_BOM + csvLine(columns)];
  for (const record of records) parts.push(csvRecordLine(record, columns));
  return parts;
}

/** A whole file as one string (small exports and tests). */
export function toCsv<C extends string>(records: Iterable<Partial<Record<C, unknown>>>, columns: readonly C[]): string {
  return csvParts(records, columns).join('');
}

/**
 * `applications_export_2026-11-20.csv`: the day in IST, given as YYYY-MM-DD. A scoped
 * export (the exporter's district ids, as exports-start answers them) names its districts:
 * `applications_export_chennai-tiruvallur_2026-11-20.csv`; 'all' or none adds nothing.
 */
export function exportFileName(prefix: string, istDay: string, scope?: readonly string[] | 'all'): string {
  const districts = scope === 'all' || !scope ? [] : scope.filter((id) => /^[a-z0-9-]+$/.test(id));
  return districts.length > 0 ? `${prefix}_${districts.join('-')}_${istDay}.csv` : `${prefix}_${istDay}.csv`;
}
