import * as v from 'valibot';
import { notArray } from '../../rules/schema';
import { tables } from '../../contracts/table-definitions';
import type { ApplicationFields, ApplicationStatus } from '../../rules/application';
import type { ApplicationSource } from '../../rules/campaigns';
import { type ApplicationRow, applicationRowSchema } from '../../rules/staff-api';

// The one owner of the applications table's keys and item shapes: the item key of an
// application and of its number's guard, the keys of the listing indexes (declared in
// lib/table-definitions.ts), and how a stored item is parsed on read. Every adapter and
// the import command build and read items through here.

interface Consent {
  readonly terms_version: string;
  readonly language: 'en' | 'ta';
  readonly accepted_at: string;
}

/** The form's fields, the number, the consent and where the applicant came from (flat: ApplicationSource). */
export interface NewApplication extends Omit<ApplicationFields, 'accept_terms' | 'email'>, ApplicationSource {
  readonly id: string;
  readonly phone_number: string;
  readonly email?: string;
  readonly submitted_at: string;
  readonly consent: Consent;
}

/** The stored application: the spec's fields plus the keys of the listing indexes. */
interface StoredApplication extends NewApplication {
  readonly want_to_volunteer: false;
  readonly want_to_join_and_volunteer: false;
  readonly application_status: ApplicationStatus;
  readonly updated_at: string;
}

/** The partition key's prefix of every application item (the number guards' is `PHONE#`). */
export const applicationKeyPrefix = 'APP#';
export const applicationKey = (id: string) => `${applicationKeyPrefix}${id}`;
/** The id in an application item's partition key; undefined for any other item of the table. */
export const applicationIdOf = (pk: string): string | undefined =>
  pk.startsWith(applicationKeyPrefix) ? pk.slice(applicationKeyPrefix.length) : undefined;
export const phoneGuardKey = (phone: string) => `PHONE#${phone}`;
/** `<ISO time>#<id>`, the sort key of every listed application (its id in group 1). */
export const submittedSortPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z#([^#]+)$/;
/** Partition value of the by-district-status index; an application without a district is `Unknown`'s. */
export const districtStatus = (district: string | undefined, status: string) => `${district ?? 'Unknown'}#${status}`;
/** Partition value of the by-campaign-status index (issue 19). */
export const campaignStatus = (campaign: string, status: string) => `${campaign}#${status}`;
/** Partition value of the by-campaign-district-status index; no district is `Unknown`'s. */
export const campaignDistrictStatus = (campaign: string, district: string | undefined, status: string) =>
  `${campaign}#${districtStatus(district, status)}`;
/** The partition value of the by-submitted index: every application shares it. */
export const allApplications = 'APP';

const indexNamed = (name: string) => {
  const index = tables.applications.indexes.find((i) => i.indexName === name);
  if (!index) throw new Error(`The table definitions declare no index ${name} on applications`);
  return { indexName: index.indexName, keyName: index.partitionKey.name };
};

/** The listing indexes (lib/table-definitions.ts), each sorted by `submitted_sort`. */
export const listingIndexes = {
  submitted: indexNamed('by-submitted'),
  status: indexNamed('by-status'),
  district: indexNamed('by-district'),
  districtStatus: indexNamed('by-district-status'),
  campaign: indexNamed('by-campaign'),
  campaignStatus: indexNamed('by-campaign-status'),
  campaignDistrictStatus: indexNamed('by-campaign-district-status'),
} as const;
export const sortKeyName = 'submitted_sort';

/**
 * Attributes derived from the fields: the keys of the listing indexes
 * (contracts/table-definitions.ts). The search has an index of its own (search-index.ts).
 */
export function indexKeys(a: {
  id: string;
  submitted_at: string;
  revenue_district?: string;
  application_status: ApplicationStatus;
  /** The campaign it came through (rules/campaigns.ts ApplicationSource), if any. */
  campaign_id?: string;
}) {
  return {
    pk: applicationKey(a.id),
    list_pk: allApplications,
    submitted_sort: `${a.submitted_at}#${a.id}`,
    district_status: districtStatus(a.revenue_district, a.application_status),
    ...(a.campaign_id && campaignKeys(a.campaign_id, a.revenue_district, a.application_status)),
  };
}

/** The campaign indexes' status-bearing keys (by-campaign reads `campaign_id` itself). */
export const campaignKeys = (campaign: string, district: string | undefined, status: string) => ({
  campaign_status: campaignStatus(campaign, status),
  campaign_district_status: campaignDistrictStatus(campaign, district, status),
});

/** The item of a new application submitted through the form. */
export function toStoredItem(application: NewApplication, status: ApplicationStatus = 'pending') {
  const stored: StoredApplication = {
    ...application,
    want_to_volunteer: false,
    want_to_join_and_volunteer: false,
    application_status: status,
    updated_at: application.submitted_at,
  };
  return { ...stored, ...indexKeys(stored) };
}

/** An application item as written: any fields plus the keys `indexKeys` derives. */
export type ApplicationItem = {
  readonly id: string;
  readonly phone_number: string;
  readonly submitted_at: string;
} & ReturnType<typeof indexKeys> &
  Record<string, unknown>;

/** The number's guard: holds the id of the one application the number has. */
export const guardItem = (a: { id: string; phone_number: string; submitted_at: string }) => ({
  pk: phoneGuardKey(a.phone_number),
  application_id: a.id,
  created_at: a.submitted_at,
});

/**
 * A stored application as read: the row's fields checked, every other attribute kept
 * (consent, status_changed_at, index keys) for the readers that need them.
 */
export const storedApplicationSchema = v.looseObject({
  ...applicationRowSchema.entries,
  consent: v.optional(notArray(v.looseObject({ language: v.optional(v.picklist(['en', 'ta'])) }))),
});
export type StoredItem = v.InferOutput<typeof storedApplicationSchema>;

/** The row staff see: the fields and where the applicant came from, never the index keys or consent. */
export function toRow(item: Record<string, unknown>): ApplicationRow {
  return v.parse(applicationRowSchema, item);
}
