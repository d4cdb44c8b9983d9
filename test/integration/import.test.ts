import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScanCommand } from '../../lambdas/lib/db';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { makeDocumentClient } from '../../lambdas/lib/dynamo';
import { importApplications, readCsv } from '../../ops/import';
import { makeCampaignStore } from '../../lambdas/adapters/campaigns';
import { randomCampaignCode } from '../../lambdas/handlers/campaigns';

// The import command's core against DynamoDB Local: counts, reasons with line numbers,
// and a second run that changes nothing.
const db = makeDocumentClient({
  STAGE: 'test',
  APP_MODE: 'local',
  AWS_REGION: 'ap-south-1',
  DYNAMODB_ENDPOINT: inject('dynamoDbEndpoint'),
});
const tableName = inject('tableNames').applications!;
const dir = mkdtempSync(join(tmpdir(), 'import-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const header =
  'id,phone_number,alternate_phone_number,name,email,gender,date_of_birth,revenue_district,assembly_constituency,education,specialization,occupation,address,is_already_member,want_to_volunteer,want_to_join_and_volunteer,motivation,application_status,submitted_at,updated_at';
const run = Date.now().toString(36);
const phoneBase = 9_300_000_000 + (Date.now() % 100_000) * 100;
const phone = (n: number) => `91${phoneBase + n}`;
const rows = [
  /* line 2 */ `imp-${run}-1,${phone(1)},9000000001,Arun Kumar,arun@example.com,Male,2001-02-03,Chennai,Harbour,Engineering,,Student,,false,false,false,Serve,approved,2025-06-01T10:00:00Z,2025-06-02T10:00:00Z`,
  /* line 3 */ `imp-${run}-2,${phone(2).slice(2)},,Meena,,,,Trichy,,Others,CS,Private,"Old address",yes,no,no,,Under Review,2025-06-03 09:30:00+05:30,`,
  /* line 4 */ `imp-${run}-3,12345,,Bad Phone,,Male,2001-01-01,Chennai,,Law,,Student,,false,false,false,x,pending,2025-06-01T10:00:00Z,`,
  /* line 5 */ `imp-${run}-4,${phone(4)},,Nowhere,,Female,2001-01-01,Gotham,,Law,,Student,,false,false,false,x,pending,2025-06-01T10:00:00Z,`,
  /* line 6 */ `imp-${run}-5,${phone(5)},,Wrong Seat,,Female,2001-01-01,Madurai,Harbour,Law,,Student,,false,false,false,x,pending,2025-06-01T10:00:00Z,`,
  /* line 7 */ `imp-${run}-1,${phone(7)},,Same Id,,Male,2001-01-01,Chennai,,Law,,Student,,false,false,false,x,pending,2025-06-01T10:00:00Z,`,
  /* line 8 */ `imp-${run}-8,${phone(1)},,Same Phone,,Male,2001-01-01,Chennai,,Law,,Student,,false,false,false,x,pending,2025-06-01T10:00:00Z,`,
  /* line 9 */ `imp-${run}-9,${phone(9)},,,,Other,2001-13-01,Chennai,,Law,,Student,,maybe,false,false,x,pending,not a date,`,
  /* line 10 */ `imp-${run}-10,${phone(10)},,கவியா,kaviya@example.com,Female,1999-12-31,The Nilgiris,,Medicine,,Home Maker,,false,false,false,"She said ""yes"", then joined",rejected,2025-07-01T00:00:00Z,`,
];

async function tableItems() {
  const result = await db.send(new ScanCommand({ TableName: tableName }));
  return (result.Items ?? []).filter((i) => String(i.pk).includes(run) || String(i.application_id ?? '').includes(run));
}

describe('import command', () => {
  const file = join(dir, 'old.csv');
  writeFileSync(file, `\uFEFF${header}\n${rows.join('\n')}\n`);

  it('imports valid rows with their id, status and time, and names each rejected row', async () => {
    const summary = await importApplications({ db, tableName, rows: readCsv(file) });
    expect(summary).toMatchObject({ read: 9, imported: 3, alreadyPresent: 0 });
    expect(summary.rejected.map((r) => r.line)).toEqual([4, 5, 6, 7, 8, 9]);
    const reasons = Object.fromEntries(summary.rejected.map((r) => [r.line, r.reasons.join('; ')]));
    expect(reasons[4]).toMatch(/phone_number/);
    expect(reasons[5]).toMatch(/Gotham/);
    expect(reasons[6]).toMatch(/Harbour.*Madurai/);
    expect(reasons[7]).toMatch(/id repeats line 2/);
    expect(reasons[8]).toMatch(/phone_number repeats line 2/);
    expect(reasons[9]).toMatch(/name is missing.*gender.*date_of_birth.*is_already_member.*submitted_at/);

    const items = await tableItems();
    const meena = items.find((i) => i.id === `imp-${run}-2`);
    expect(meena).toMatchObject({
      phone_number: phone(2),
      revenue_district: 'Tiruchirappalli',
      application_status: 'under_review',
      education: 'Others',
      is_already_member: true,
      submitted_at: '2025-06-03T04:00:00.000Z',
      district_status: 'Tiruchirappalli#under_review',
    });
    expect(meena?.gender).toBeUndefined();
    const kaviya = items.find((i) => i.id === `imp-${run}-10`);
    expect(kaviya).toMatchObject({
      name: 'கவியா',
      revenue_district: 'Nilgiris',
      motivation: 'She said "yes", then joined',
    });
    expect(items.filter((i) => String(i.pk).startsWith('PHONE#'))).toHaveLength(3);
  });

  it('changes nothing when the same file is imported again', async () => {
    const before = await tableItems();
    const summary = await importApplications({ db, tableName, rows: readCsv(file) });
    expect(summary).toMatchObject({ read: 9, imported: 0, alreadyPresent: 3 });
    expect(summary.rejected).toHaveLength(6);
    const after = await tableItems();
    const key = (i: Record<string, unknown>) => String(i.pk);
    expect(after.sort((a, b) => key(a).localeCompare(key(b)))).toEqual(
      before.sort((a, b) => key(a).localeCompare(key(b))),
    );
  });

  it('refuses a new id for a number that already has an application', async () => {
    const other = join(dir, 'other.csv');
    writeFileSync(
      other,
      `${header}\nimp-${run}-x,${phone(1)},,Another,,Male,2001-01-01,Chennai,,Law,,Student,,false,false,false,x,pending,2025-06-01T10:00:00Z,\n`,
    );
    const summary = await importApplications({ db, tableName, rows: readCsv(other) });
    expect(summary.imported).toBe(0);
    expect(summary.rejected).toEqual([{ line: 2, reasons: [`phone_number already has application imp-${run}-1`] }]);
  });

  it('reads the optional campaign and UTM columns: a code becomes its campaign, an unknown one rejects the row', async () => {
    const campaignsTable = inject('tableNames').campaigns!;
    const store = makeCampaignStore(db, campaignsTable);
    const code = randomCampaignCode();
    const id = `imp-campaign-${run}`;
    // Paused: an import keeps the campaign a past application came through.
    await store.insert({
      id,
      code,
      name_en: 'Old drive',
      name_ta: 'பழைய பரப்புரை',
      kind: 'online',
      starts_on: '2025-01-01',
      ends_on: '2025-12-31',
      status: 'paused',
      created_at: new Date().toISOString(),
    });
    const withSource = join(dir, 'source.csv');
    const line = (n: number, campaign: string, utm: string) =>
      `imp-${run}-s${n},${phone(20 + n)},,Source ${n},,Male,2001-01-01,Chennai,,Law,,Student,,false,false,false,x,pending,2025-06-01T10:00:00Z,,${campaign},${utm},,`;
    writeFileSync(
      withSource,
      `${header},campaign,utm_source,utm_medium,utm_campaign\n${[
        line(1, code.toUpperCase(), 'instagram'),
        line(2, randomCampaignCode(), ''),
        line(3, 'not a code', 'x'.repeat(101)),
        line(4, '', 'whatsapp'),
      ].join('\n')}\n`,
    );
    const summary = await importApplications({ db, tableName, campaignsTable, rows: readCsv(withSource) });
    expect(summary.imported).toBe(2);
    expect(summary.rejected.map((r) => r.line)).toEqual([3, 4]);
    expect(summary.rejected[0]!.reasons.join()).toMatch(/names no campaign/);
    expect(summary.rejected[1]!.reasons.join()).toMatch(/campaign is not a campaign code.*utm_source/);
    const items = await tableItems();
    expect(items.find((i) => i.id === `imp-${run}-s1`)).toMatchObject({
      campaign_id: id,
      campaign_code: code,
      utm_source: 'instagram',
    });
    const plain = items.find((i) => i.id === `imp-${run}-s4`)!;
    expect(plain).toMatchObject({ utm_source: 'whatsapp' });
    expect(plain.campaign_id).toBeUndefined();
  });
});
