import { districts } from './districts';

// Who on the staff may see and do what (issue 17). Three roles, as Cognito groups:
// - admin: everything, every district, staff management, erasure;
// - coordinator: review (status changes), exports and reports, in their districts only;
// - viewer: read-only, in every district or in the ones named.
// A user's districts travel in the ID token as the custom attribute `custom:districts`
// (district ids, comma-separated: "chennai,tiruvallur"), which only an admin can write
// (the SPA client may not: lib/constructs/staff-auth.ts). The server applies the scope
// to every staff route; the SPA only mirrors it.

export const staffRoles = ['admin', 'coordinator', 'viewer'] as const;
export type StaffRole = (typeof staffRoles)[number];

/** The Cognito attribute that holds a user's districts, and its claim in the ID token. */
export const DISTRICTS_ATTRIBUTE = 'districts';
export const districtsClaim = `custom:${DISTRICTS_ATTRIBUTE}`;

/**
 * What a staff member may see: the districts by English name (as applications store
 * them), or undefined for every district (and applications whose district is unknown).
 */
export interface StaffScope {
  readonly districts?: readonly string[];
}

export const everyDistrict: StaffScope = {};

const byId = new Map(districts.map((d) => [d.id, d]));
const byName = new Map(districts.map((d) => [d.en, d]));

/** District ids from the attribute's text, or undefined when one of them is no district. Empty text: []. */
export function parseDistrictIds(text: string | undefined | null): string[] | undefined {
  const ids = (text ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (!ids.every((id) => byId.has(id))) return undefined;
  // In the data file's order, each once: the attribute's text is then one per set of districts.
  return districts.filter((d) => ids.includes(d.id)).map((d) => d.id);
}

/** The attribute's text for a set of district ids. */
export function formatDistrictIds(ids: readonly string[]): string {
  return districts
    .filter((d) => ids.includes(d.id))
    .map((d) => d.id)
    .join(',');
}

/** The scope of a role and its district ids; undefined when the role needs districts and has none. */
export function scopeOf(role: StaffRole, ids: readonly string[]): StaffScope | undefined {
  if (role === 'admin') return everyDistrict;
  if (ids.length === 0) return role === 'viewer' ? everyDistrict : undefined;
  return { districts: ids.map((id) => byId.get(id)!.en) };
}

/** The scope's district ids (none: every district). */
export function scopeDistrictIds(scope: StaffScope): string[] {
  return (scope.districts ?? []).map((name) => byName.get(name)?.id ?? '').filter(Boolean);
}

/** True when an application of `district` (its English name; absent: unknown) is in the scope. */
export function inScope(scope: StaffScope, district: string | undefined | null): boolean {
  return !scope.districts || (!!district && scope.districts.includes(district));
}

/**
 * The districts a query may read: the ones asked for within the scope (none asked: the
 * whole scope). Answers [] for "every district" (an unscoped user asking for none), and
 * undefined when nothing asked for is in the scope: the answer is then empty.
 */
export function districtsToRead(scope: StaffScope, asked: readonly string[]): readonly string[] | undefined {
  if (!scope.districts) return asked;
  if (asked.length === 0) return scope.districts;
  const allowed = asked.filter((d) => scope.districts!.includes(d));
  return allowed.length > 0 ? allowed : undefined;
}

/** "Chennai, Tiruvallur" in the page's language; undefined for every district. */
export function scopeLabel(scope: StaffScope, language: 'en' | 'ta'): string | undefined {
  if (!scope.districts) return undefined;
  return scope.districts.map((name) => byName.get(name)?.[language] ?? name).join(', ');
}
