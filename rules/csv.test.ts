import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import {
  applicationExportColumns,
  CSV_BOM,
  csvCell,
  csvLine,
  csvParts,
  exportFileName,
  phoneAsText,
  toCsv,
} from './csv';

describe('csv cells', () => {
  it('quotes every cell and doubles inner quotes', () => {
    expect(csvCell('Kavya')).toBe('"Kavya"');
    expect(csvCell('say "hello"')).toBe('"say ""hello"""');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('line one\nline two')).toBe('"line one\nline two"');
    expect(csvCell('')).toBe('""');
  });

  it('writes missing values empty and booleans and numbers plainly', () => {
    expect(csvCell(undefined)).toBe('""');
    expect(csvCell(null)).toBe('""');
    expect(csvCell(true)).toBe('"true"');
    expect(csvCell(false)).toBe('"false"');
    expect(csvCell(42)).toBe('"42"');
  });

  it.each([
    '=SUM(A1:A9)',
    '+91 98765',
    '-2+3',
    '@cmd',
    '\t=1',
    '\r=1',
    // The trigger is the first visible character: leading spaces, controls and format characters hide nothing.
    '  =1+1',
    '\u0000=1',
    '\n@cmd',
    '\u200b=1',
    '\u202e\u00a0+1',
  ])('neutralises a formula: %j', (text) => {
    const cell = csvCell(text);
    expect(cell).toBe(`"'${text}"`);
  });

  it('leaves ordinary text, dates, numbers and Tamil as they are', () => {
    for (const text of [
      '919876543210',
      '2001-05-14',
      '2026-11-20T10:00:00.000Z',
      'மதுரை',
      'Arts & Science',
      'a=b',
      'x-y',
    ]) {
      expect(csvCell(text)).toBe(`"${text}"`);
    }
  });

  it('neutralises before quoting, so a quoted formula stays inert', () => {
    expect(csvCell('="x"')).toBe(`"'=""x"""`);
  });
});

describe('csv files', () => {
  const records = [
    {
      id: 'a1',
      name: 'Kavya "KR" Raman',
      phone_number: '919876543210',
      is_already_member: false,
      motivation: 'To serve,\r\nand learn',
    },
    {
      id: 'a2',
      name: 'முருகன்',
      phone_number: '919812345678',
      email: '=HYPERLINK("http://x")',
      is_already_member: true,
    },
  ];

  it('ends every line with CRLF and starts with a byte-order mark', () => {
    expect(csvLine(['a', 'b'])).toBe('"a","b"\r\n');
    const text = toCsv(records, applicationExportColumns);
    expect(text.startsWith(CSV_BOM)).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    // Three records' worth of lines (header + 2); the CRLF inside a quoted cell is data.
    expect(text.split('\r\n').length).toBe(5);
  });

  it('puts the spec columns first, then every other field, then the source', () => {
    expect(applicationExportColumns.slice(0, 8)).toEqual([
      'id',
      'name',
      'phone_number',
      'email',
      'revenue_district',
      'assembly_constituency',
      'application_status',
      'submitted_at',
    ]);
    expect(applicationExportColumns.slice(-7)).toEqual([
      'campaign_code',
      'campaign_id',
      'utm_source',
      'utm_medium',
      'utm_campaign',
      'referrer_id',
      'member_number',
    ]);
    expect(applicationExportColumns).toHaveLength(27);
    expect(new Set(applicationExportColumns).size).toBe(27);
  });

  it('round-trips through a CSV parser, with the guard the only change', () => {
    const text = toCsv(records, applicationExportColumns);
    const parsed: Record<string, string>[] = parse(text, { bom: true, columns: true });
    expect(parsed).toHaveLength(2);
    expect(Object.keys(parsed[0]!)).toEqual([...applicationExportColumns]);
    expect(parsed[0]).toMatchObject({
      id: 'a1',
      name: 'Kavya "KR" Raman',
      phone_number: '91 98765 43210',
      email: '',
      is_already_member: 'false',
      motivation: 'To serve,\r\nand learn',
    });
    expect(parsed[1]).toMatchObject({ name: 'முருகன்', email: `'=HYPERLINK("http://x")`, is_already_member: 'true' });
  });

  it('gives the parts of a file for a Blob: one per record after the header', () => {
    const parts = csvParts(records, ['id', 'name'] as const);
    expect(parts).toEqual([`${CSV_BOM}"id","name"\r\n`, '"a1","Kavya ""KR"" Raman"\r\n', '"a2","முருகன்"\r\n']);
  });

  it('writes only a header when nothing matches', () => {
    expect(toCsv([], ['id', 'name'] as const)).toBe(`${CSV_BOM}"id","name"\r\n`);
  });

  it('writes times in IST with the +05:30 offset, as the screens show them', () => {
    const text = toCsv(
      [{ id: 'a3', submitted_at: '2026-11-20T17:30:00.000Z', updated_at: '2026-11-20T18:31:05.123Z' }],
      applicationExportColumns,
    );
    const [row] = parse<Record<string, string>>(text, { bom: true, columns: true });
    expect(row!.submitted_at).toBe('2026-11-20T23:00:00+05:30');
    expect(row!.updated_at).toBe('2026-11-21T00:01:05+05:30');
    expect(Date.parse(row!.submitted_at!)).toBe(Date.parse('2026-11-20T17:30:00.000Z'));
  });

  it('writes phone numbers as text that no spreadsheet reads as a number', () => {
    const text = toCsv(
      [{ id: 'a4', phone_number: '919876543210', alternate_phone_number: '9000000001' }],
      applicationExportColumns,
    );
    const [row] = parse<Record<string, string>>(text, { bom: true, columns: true });
    expect(row!.phone_number).toBe('91 98765 43210');
    expect(row!.alternate_phone_number).toBe('90000 00001');
    // Not a number in any reading, and the digits come back whole.
    expect(Number.isNaN(Number(row!.phone_number))).toBe(true);
    expect(row!.phone_number!.replace(/\D/g, '')).toBe('919876543210');
    expect(phoneAsText('12345')).toBe('12345');
  });

  it('names the file after the IST day', () => {
    expect(exportFileName('applications_export', '2026-11-20')).toBe('applications_export_2026-11-20.csv');
    expect(exportFileName('applications_export', '2026-11-20', ['chennai', 'tiruvallur'])).toBe(
      'applications_export_chennai-tiruvallur_2026-11-20.csv',
    );
  });

  it("names a scoped export's districts (issue 17), and nothing for every district", () => {
    expect(exportFileName('applications_export', '2026-11-20', ['chennai', 'tiruvallur'])).toBe(
      'applications_export_chennai-tiruvallur_2026-11-20.csv',
    );
    expect(exportFileName('applications_report', '2026-11-20', 'all')).toBe('applications_report_2026-11-20.csv');
    expect(exportFileName('applications_report', '2026-11-20', [])).toBe('applications_report_2026-11-20.csv');
    // Only ids as the district data has them: nothing else reaches a file name.
    expect(exportFileName('x', '2026-11-20', ['../etc', 'madurai'])).toBe('x_madurai_2026-11-20.csv');
  });
});
