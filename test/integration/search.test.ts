import { BatchWriteCommand, ScanCommand } from '../../lambdas/lib/db';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { indexEntryOf, makeSearchIndex } from '../../lambdas/adapters/search-index';
import { rebuildSearchIndex } from '../../lambdas/lib/search-rebuild';
import { matchesSearch, parseSearchQuery } from '../../rules/search';
import type { ListResponse } from '../../rules/staff-api';
import {
  changeFields,
  changeStatus,
  DISTRICTS,
  erase,
  generateApplications,
  inParallel,
  istDayOf,
  putAll,
  randomSource,
  scanApplications,
  shiftDay,
  STATUSES,
} from '../support/rollups';
import { startScopeTier, type ScopeTier } from '../support/scope-tier';
import { testStaff } from '../support/staff';
import { signIn } from '../support/tokens';

// Issue 18: the dashboard's search answers from its index exactly what a scan of the
// table finds with the same rule (rules/search.ts `matchesSearch`). At least 5,000
// applications (SEARCH_TEST_APPLICATIONS) with names in Latin and Tamil script, accents,
// emails in mixed case and numbers sharing their last digits are fed through the table's
// stream into the real consumer, then changed (statuses, corrected names, numbers and
// emails) and some erased. Random searches of every shape, with random filters, by an
// admin and by coordinators, page for page and with their totals, equal the scan's
// answer; the index holds exactly the tokens of the applications still stored.

const COUNT = Math.max(5_000, Number(process.env.SEARCH_TEST_APPLICATIONS ?? 5_000));
const DAYS = 60;
const random = randomSource(18_2026);
const pool = inject('pool');
const today = () => istDayOf(Date.now());

const latinFirst = ['Kavya', 'Karthik', 'Arun', 'Anbu', 'Priya', 'Meena', 'Selvi', 'Senthil', 'Divya', 'Muthu'];
const latinLast = ['Rajendran', 'Raja', 'Kumar', 'Lakshmi', 'Nathan', 'Devi', 'Murugan', 'Pandian', 'José', 'Élan'];
const tamilFirst = ['கவியா', 'கார்த்திக்', 'அருண்', 'அன்பு', 'பிரியா', 'மீனா', 'செல்வி', 'செந்தில்', 'முத்து', 'கொடி'];
const tamilLast = ['ராஜேந்திரன்', 'ராஜா', 'குமார்', 'லட்சுமி', 'நாதன்', 'தேவி', 'முருகன்', 'பாண்டியன்'];
/** Last digits many numbers share, so that a tail matches several applications. */
const sharedTails = ['4321', '0007', '9999'];

function person(i: number) {
  const tamil = random.chance(0.45);
  const first = random.pick(tamil ? tamilFirst : latinFirst);
  const last = random.pick(tamil ? tamilLast : latinLast);
  const name = random.chance(0.1)
    ? `${first}  ${last}-${random.pick(tamil ? tamilLast : latinLast)}`
    : `${first} ${last}`;
  const head = `${random.int(6, 9)}${String(random.int(0, 99_999)).padStart(5, '0')}`;
  const tail = random.chance(0.1) ? random.pick(sharedTails) : String(random.int(0, 9999)).padStart(4, '0');
  const email = random.chance(0.3)
    ? undefined
    : `${first.normalize('NFD').replace(/[^a-z]/gi, '') || 'user'}.${i}@Example.ORG`;
  return { name, phone_number: `91${head}${tail}`, ...(email && { email }) };
}

let tier: ScopeTier;
let firstDay: string;
let stored: Record<string, unknown>[] = [];
const erased: string[] = [];

const viewers = [
  { who: 'admin', user: testStaff.admin, districts: undefined as readonly string[] | undefined, token: '' },
  { who: 'coordinator of Chennai', user: testStaff.coordinator, districts: ['Chennai'], token: '' },
  {
    who: 'coordinator of Chennai and Tiruvallur',
    user: testStaff.coordinatorOfTwo,
    districts: ['Chennai', 'Tiruvallur'],
    token: '',
  },
];

beforeAll(async () => {
  tier = await startScopeTier('search');
  for (const v of viewers) v.token = await signIn(inject('cognitoEndpoint'), pool.clientId, v.user);
  const generated = generateApplications(random, COUNT, DAYS, today());
  firstDay = generated.firstDay;
  // Chennai and Tiruvallur get a share large enough that coordinators' searches find rows.
  const items = generated.items.map((item, i): Record<string, unknown> => {
    const district = random.chance(0.15) ? random.pick(['Chennai', 'Tiruvallur']) : item.revenue_district;
    const status = String(item.application_status);
    return {
      ...item,
      ...person(i),
      ...(typeof district === 'string' && { revenue_district: district, district_status: `${district}#${status}` }),
    };
  });
  await putAll(tier.db, tier.names.applications, items);
  await tier.poller.drain(240_000);
  // Then the changes a live table sees: reviews, corrections of what the index keeps, erasures.
  await inParallel(
    items.filter(() => random.chance(0.2)),
    16,
    (item) => changeStatus(tier.db, tier.names.applications, item, random.pick(STATUSES)),
  );
  await inParallel(
    items.filter(() => random.chance(0.05)),
    16,
    (item) => {
      const district = random.pick(['Chennai', 'Tiruvallur', ...DISTRICTS]);
      const { name, phone_number, email } = person(random.int(0, 1_000_000));
      return changeFields(tier.db, tier.names.applications, item, {
        name,
        phone_number,
        email: email ?? '',
        revenue_district: district,
        district_status: `${district}#${String(item.application_status)}`,
      });
    },
  );
  await inParallel(
    items.filter(() => random.chance(0.02)),
    16,
    async (item) => {
      await erase(tier.db, tier.names.applications, item);
      erased.push(String(item.id));
    },
  );
  await tier.poller.drain(240_000);
  expect(tier.poller.failures()).toEqual([]);
  stored = await scanApplications(tier.db, tier.names.applications);
  expect(stored.length).toBe(COUNT - erased.length);
}, 600_000);

afterAll(() => tier?.stop());

interface Filters {
  q: string;
  status?: string;
  district?: string;
  from?: string;
  to?: string;
}

/** What a scan finds: the rule on every stored application, the filters, the scope; newest first. */
function scanFor(filters: Filters, scope: readonly string[] | undefined): string[] {
  const query = parseSearchQuery(filters.q);
  if (typeof query === 'string') throw new Error(`not a query: ${filters.q}`);
  return stored
    .filter((a) => {
      const searchable = {
        name: String(a.name),
        phone_number: String(a.phone_number),
        ...(typeof a.email === 'string' && { email: a.email }),
      };
      if (!matchesSearch(query, searchable)) return false;
      if (filters.status && a.application_status !== filters.status) return false;
      const district = typeof a.revenue_district === 'string' ? a.revenue_district : undefined;
      if (filters.district && district !== filters.district) return false;
      if (scope && !(district && scope.includes(district))) return false;
      const day = istDayOf(Date.parse(String(a.submitted_at)));
      return (!filters.from || day >= filters.from) && (!filters.to || day <= filters.to);
    })
    .sort((a, b) => String(b.submitted_sort).localeCompare(String(a.submitted_sort)))
    .map((a) => String(a.id));
}

/** A query as staff type it, from a stored application: its number in some form, its email, words of its name. */
function queryFrom(a: Record<string, unknown>): string {
  const national = String(a.phone_number).slice(2);
  const name = String(a.name).split(/[\s-]+/);
  const prefix = (w: string) => [...w].slice(0, random.int(1, Math.min(4, [...w].length))).join('');
  switch (random.int(0, 6)) {
    case 0:
      return `+91 ${national.slice(0, 5)} ${national.slice(5)}`;
    case 1:
      return `0${national}`;
    case 2:
      return national.slice(-random.int(4, 7));
    case 3:
      return typeof a.email === 'string' && a.email ? a.email.toUpperCase() : national;
    case 4:
      return prefix(random.pick(name)).toUpperCase();
    case 5:
      return `${prefix(name[0]!)} ${prefix(name.at(-1)!)}`;
    default:
      return random.pick(name).normalize('NFC');
  }
}

function randomFilters(q: string): Filters {
  const filters: Filters = { q };
  if (random.chance(0.3)) filters.status = random.pick(STATUSES);
  if (random.chance(0.2)) filters.district = random.pick(['Chennai', 'Tiruvallur', 'Madurai']);
  if (random.chance(0.3)) {
    filters.from = shiftDay(firstDay, random.int(0, DAYS - 10));
    filters.to = shiftDay(filters.from, random.int(0, 20));
  }
  return filters;
}

async function searchAll(token: string, filters: Filters, pageSize: number) {
  const ids: string[] = [];
  const totals = new Set<number>();
  let cursor: string | undefined;
  do {
    const { status, body } = await tier.call<ListResponse>(token, 'POST', '/api/admin/applications/search', {
      filters,
      pageSize,
      ...(cursor && { cursor }),
    });
    expect(status, JSON.stringify(body)).toBe(200);
    ids.push(...body.items.map((r) => r.id));
    totals.add(body.total);
    cursor = body.nextCursor;
  } while (cursor);
  return { ids, totals: [...totals] };
}

describe('search through the index', () => {
  it.each(viewers.map((v) => [v.who, v] as const))(
    'finds for the %s exactly what a scan finds, page by page, with the exact total',
    async (_who, viewer) => {
      const inScope = viewer.districts
        ? stored.filter((a) => viewer.districts!.includes(String(a.revenue_district)))
        : stored;
      let nonEmpty = 0;
      for (let i = 0; i < 60; i++) {
        const filters = randomFilters(queryFrom(random.pick(random.chance(0.8) ? inScope : stored)));
        const want = scanFor(filters, viewer.districts);
        // Many pages of a broad prefix would only repeat the same read: large pages for those.
        const got = await searchAll(viewer.token, filters, want.length > 200 ? 100 : random.pick([10, 50, 100]));
        expect({ filters, ids: got.ids, totals: got.totals }).toEqual({ filters, ids: want, totals: [want.length] });
        if (want.length > 0) nonEmpty += 1;
      }
      // The queries come from stored applications (random filters then narrow them): a third
      // at least must find something, or this proves little.
      expect(nonEmpty).toBeGreaterThanOrEqual(20);
    },
    300_000,
  );

  it('finds numbers sharing their last digits, and reads only what matches', async () => {
    const admin = viewers[0]!.token;
    for (const tail of sharedTails) {
      const want = scanFor({ q: tail }, undefined);
      expect(want.length).toBeGreaterThan(10);
      expect((await searchAll(admin, { q: tail }, 100)).ids).toEqual(want);
    }
    const index = makeSearchIndex(tier.db, tier.names.search);
    const found = await index.find({ kind: 'phone', digits: sharedTails[0]! }, 100_000);
    // The tokens of that tail: the matches, nothing else read.
    expect(found.scanned).toBe(scanFor({ q: sharedTails[0]! }, undefined).length);
  });

  it('answers a query it cannot serve from the index with a field error, never a scan', async () => {
    const admin = viewers[0]!.token;
    for (const q of ['123', '+91', '—']) {
      const { status, body } = await tier.call(admin, 'POST', '/api/admin/applications/search', { filters: { q } });
      expect({ q, status, body }).toMatchObject({
        q,
        status: 400,
        body: { error: { code: 'VALIDATION_FAILED', fields: { q: 'TOO_SHORT' } } },
      });
    }
  });
});

/** The index's items: tokens (with the entry they carry) and per-application states. */
async function scanIndex() {
  const tokens: string[] = [];
  const states = new Map<string, Record<string, unknown>>();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await tier.db.send(
      new ScanCommand({ TableName: tier.names.search, ConsistentRead: true, ExclusiveStartKey: start }),
    );
    for (const item of page.Items ?? []) {
      if (item.sk === 'STATE') states.set(String(item.pk).slice(4), item);
      else tokens.push(JSON.stringify([item.pk, item.sk, item.id, item.status, item.district ?? null]));
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return { tokens: tokens.sort(), states };
}

/** The tokens the stored applications should have (contracts of search-index.ts). */
function expectedTokens(): string[] {
  return stored
    .flatMap((a) => {
      const built = indexEntryOf(a)!;
      return built.tokens.map((t) =>
        JSON.stringify([t.pk, t.sk, built.entry.id, built.entry.status, built.entry.district ?? null]),
      );
    })
    .sort();
}

describe('the index itself', () => {
  it('holds exactly the tokens of the applications stored: an erased one leaves only a tombstone', async () => {
    const { tokens, states } = await scanIndex();
    expect(tokens).toEqual(expectedTokens());
    expect(erased.length).toBeGreaterThan(0);
    for (const id of erased)
      expect(Object.keys(states.get(id) ?? {}).sort(), id).toEqual(['pk', 'seq', 'sk', 'tokens']);
    for (const id of erased) expect(states.get(id)?.tokens, id).toEqual([]);
  });

  it('is rebuilt from the table: what it lacks is indexed, what it holds is left alone', async () => {
    const { tokens: before } = await scanIndex();
    // Some applications lose everything the index held of them, as if stored before it existed.
    const lost = new Set(stored.filter(() => random.chance(0.05)).map((a) => String(a.id)));
    const doomed: { pk: unknown; sk: unknown }[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await tier.db.send(
        new ScanCommand({ TableName: tier.names.search, ConsistentRead: true, ExclusiveStartKey: start }),
      );
      for (const item of page.Items ?? []) {
        const id = item.sk === 'STATE' ? String(item.pk).slice(4) : String(item.id);
        if (lost.has(id)) doomed.push({ pk: item.pk, sk: item.sk });
      }
      start = page.LastEvaluatedKey;
    } while (start);
    for (let i = 0; i < doomed.length; i += 25) {
      const requests = doomed.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } }));
      await tier.db.send(new BatchWriteCommand({ RequestItems: { [tier.names.search]: requests } }));
    }
    expect((await scanIndex()).tokens.length).toBeLessThan(before.length);
    const index = makeSearchIndex(tier.db, tier.names.search);
    const result = await rebuildSearchIndex(tier.db, tier.names.applications, index);
    expect(result).toEqual({ scanned: stored.length, indexed: lost.size, skipped: stored.length - lost.size });
    expect((await scanIndex()).tokens).toEqual(before);
  }, 300_000);
});
