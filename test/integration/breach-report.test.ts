import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { applicationKey, phoneGuardKey } from '../../lambdas/adapters/application-items';
import { stateKey } from '../../lambdas/adapters/rollups-keys';
import { ensureTables, localDb, localDynamoClient, localTableNames } from '../../local/dynamodb';
import { main } from '../../ops/breach-report';
import { findBreachAffected } from '../../ops/breach-scan';
import { useLocalTarget } from '../support/local-target';
import { applicationItem, putAll } from '../support/rollups';

// The breach command (issue 21) on fresh tables in DynamoDB Local: who an incident window
// and a set of exposed tables touched, by district, and the numbers to notify written to a
// file only the operator can read, with nothing personal on the terminal.

const endpoint = inject('dynamoDbEndpoint');
const names = localTableNames(`breach-${Date.now().toString(36)}`);
const db = localDb(endpoint);
const dir = mkdtempSync(join(tmpdir(), 'breach-'));
// Times around now: DynamoDB Local, like DynamoDB, no longer returns an item whose TTL has passed.
const HOUR = 3_600_000;
const now = Date.now();
const at = (hours: number) => new Date(now + hours * HOUR).toISOString();
const ttl = (hours: number) => Math.floor((now + hours * HOUR) / 1000);
const window = { from: new Date(now - 30 * 24 * HOUR), to: new Date(now - HOUR) };

const phones = {
  a: '919840000001',
  b: '919840000002',
  d: '919840000004',
  n: '919840000010',
  m: '919840000011',
  w: '919840000012',
};

beforeAll(async () => {
  const client = localDynamoClient(endpoint);
  await ensureTables(client, names);
  client.destroy();
  const app = (id: string, phone: string, district: string, submitted: string, language: 'en' | 'ta') => ({
    ...applicationItem({
      id,
      submitted_at: submitted,
      application_status: 'pending',
      revenue_district: district,
      phone_number: phone,
    }),
    language,
  });
  await putAll(db, names.applications, [
    app('a', phones.a, 'Chennai', at(-20 * 24), 'ta'),
    // Applied after the window: a search or rollups item of theirs does not make them exposed.
    app('b', phones.b, 'Madurai', at(-0.2), 'en'),
    app('d', phones.d, 'Coimbatore', at(-60 * 24), 'en'),
    { pk: phoneGuardKey(phones.a), application_id: 'a' },
    { pk: phoneGuardKey(phones.b), application_id: 'b' },
  ]);
  await putAll(db, names.otps, [
    // A number that asked for a code in the window and never applied; one that asked after it.
    { pk: phones.n, created_at: at(-2), ttl: ttl(0.2) },
    { pk: phones.m, created_at: at(-0.5), ttl: ttl(0.2) },
  ]);
  await putAll(db, names.rateLimits, [
    { pk: `cooldown#otp#${phones.a}`, ttl: ttl(1) },
    // Set to expire before the window began (an item DynamoDB has not removed yet).
    { pk: `cooldown#otp#${phones.d}`, ttl: ttl(-31 * 24) },
  ]);
  await putAll(db, names.search, [
    { pk: applicationKey('a'), sk: 'STATE' },
    { pk: applicationKey('b'), sk: 'STATE' },
  ]);
  await putAll(db, names.rollups, [{ ...stateKey('g1', 'b') }]);
  await putAll(db, names.deliveries, [
    // A decision message of an application erased since.
    { pk: 'MSG#sms#x1', application_id: 'c', accepted_at: at(-5 * 24), ttl: ttl(25 * 24) },
    // A withdrawal's confirmation, not sent yet (issue 21): its application is erased, the item holds the number.
    { pk: 'WITHDRAWN#w', phone_number: phones.w, language: 'ta', created_at: at(-3), ttl: ttl(21) },
  ]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('breach report', () => {
  it('finds who the exposed tables held during the window, by district', async () => {
    const all = await findBreachAffected(
      db,
      names,
      ['applications', 'otps', 'rateLimits', 'search', 'rollups', 'deliveries'],
      window,
    );
    expect([...all.people.keys()].sort()).toEqual([phones.a, phones.d, phones.n, phones.w].sort());
    expect([...all.people.get(phones.w)!.tables]).toEqual(['deliveries']);
    expect(all.people.get(phones.a)).toMatchObject({ district: 'Chennai', language: 'ta' });
    expect([...all.people.get(phones.a)!.tables].sort()).toEqual(['applications', 'rateLimits', 'search']);
    expect(all.people.get(phones.n)?.district).toBeUndefined();
    expect(all.erasedSince).toBe(1);
    expect(all.perTable.otps).toMatchObject({ exposed: 1 });

    // Only the OTPs exposed: the one number, and its application's district when it has one.
    const otps = await findBreachAffected(db, names, ['otps'], window);
    expect([...otps.people.keys()]).toEqual([phones.n]);
    const limits = await findBreachAffected(db, names, ['rateLimits'], window);
    expect([...limits.people.values()].map((p) => [p.phone, p.district])).toEqual([[phones.a, 'Chennai']]);
  });

  it('prints counts only and writes the numbers to a file only its owner reads, never over another', async () => {
    useLocalTarget(dir, endpoint, names);
    const file = join(dir, 'notify.csv');
    let printed = '';
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        printed += chunk.toString();
        done();
      },
    });
    const ist = (d: Date) => new Date(d.getTime() + 5.5 * HOUR).toISOString().replace('Z', '+05:30');
    const args = ['--from', ist(window.from), '--to', ist(window.to), '--out', file];
    expect(await main(args, out)).toBe(0);
    expect(printed).toMatch(/People to notify: 4 \(and 1 exposed applications erased since/);
    expect(printed).toMatch(/Chennai\s+1\n/);
    // The number that asked for a code only, and the withdrawn one whose confirmation was waiting.
    expect(printed).toMatch(/never applied.*\s+2\n/);
    // No number, in any spelling, reaches the terminal.
    expect(printed).not.toMatch(/98400000|\d{10}/);
    const rows: Record<string, string>[] = parse(readFileSync(file), { bom: true, columns: true });
    // The number as the exports write it (spaced: a spreadsheet keeps it as text).
    expect(rows.map((r) => [r.phone_number?.replace(/ /g, ''), r.district, r.language])).toEqual([
      [phones.a, 'Chennai', 'ta'],
      [phones.d, 'Coimbatore', 'en'],
      [phones.n, '', ''],
      [phones.w, '', ''],
    ]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await expect(main(args, out)).rejects.toThrow(/EEXIST/);
    // A window that ends before it starts is refused with the usage.
    expect(await main(['--from', '2026-02-01T00:00:00Z', '--to', '2026-01-01T00:00:00Z'], out)).toBe(2);
    delete process.env.LOCAL_DATA_DIR;
  });

  // Last: the counts above are without it.
  it("finds a grievance's contact number (issue 21), opened by the window's end, with its district when it applied", async () => {
    await putAll(db, names.grievances, [
      { pk: 'GRIEVANCE#g1', id: 'g1', phone_number: '919840000013', opened_at: at(-3), text: 'x' },
      { pk: 'GRIEVANCE#g2', id: 'g2', phone_number: phones.a, opened_at: at(-5), text: 'y' },
      // Opened after the window.
      { pk: 'GRIEVANCE#g3', id: 'g3', phone_number: '919840000014', opened_at: at(-0.2), text: 'z' },
    ]);
    const found = await findBreachAffected(db, names, ['grievances'], window);
    expect([...found.people.keys()].sort()).toEqual(['919840000013', phones.a].sort());
    expect(found.people.get(phones.a)).toMatchObject({ district: 'Chennai' });
    expect(found.perTable.grievances).toEqual({ read: 3, exposed: 2 });
  });
});
