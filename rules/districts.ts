// The 38 revenue districts and 234 assembly constituencies of Tamil Nadu, in English
// and Tamil. The data file is the product's own copy of shared reference data.
import data from './data/tamil-nadu-constituencies.json';

export interface Constituency {
  readonly no: number;
  readonly en: string;
  readonly ta: string;
}

export interface District {
  readonly id: string;
  readonly en: string;
  readonly ta: string;
  readonly constituencies: readonly Constituency[];
}

export const districts: readonly District[] = data.districts;

const byId = new Map(districts.map((d) => [d.id, d]));

export function findDistrict(id: string): District | undefined {
  return byId.get(id);
}

/** True when the constituency (by number) belongs to the district. */
export function constituencyBelongsTo(districtId: string, constituencyNo: number): boolean {
  return findDistrict(districtId)?.constituencies.some((c) => c.no === constituencyNo) ?? false;
}
