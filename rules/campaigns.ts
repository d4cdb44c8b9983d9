import * as v from 'valibot';
import { districts } from './districts';
import { parseDate } from './ist';
import { attributionParams } from './attribution';
import { crossCheck, requestObject } from './schema';
import { isPlainText } from './text';

// Where members come from (issue 19): campaigns with a short code, a link and a QR code;
// the UTM parameters of the first visit; a member's referral link. Shared by the public
// page (what it keeps and sends), the staff area (campaign screens) and the server (what
// it checks and freezes on the application).

export const campaignKinds = ['college', 'event', 'online', 'other'] as const;
export type CampaignKind = (typeof campaignKinds)[number];

export type { Attribution } from './attribution';
export {
  attributionParams,
  CAMPAIGN_CODE_LENGTH,
  cleanAttribution,
  CODE_ALPHABET,
  isCampaignCode,
  isReferralCode,
  REFERRAL_CODE_LENGTH,
  UTM_MAX_LENGTH,
} from './attribution';

/**
 * What the server freezes on an application at submit: the campaign the code named (when
 * it was live), the UTM values, and the member whose referral code it was. Stored as flat
 * attributes of the application item.
 */
export interface ApplicationSource {
  readonly campaign_id?: string;
  readonly campaign_code?: string;
  readonly utm_source?: string;
  readonly utm_medium?: string;
  readonly utm_campaign?: string;
  /** The referring member's application id. */
  readonly referrer_id?: string;
}
export const applicationSourceFields = [
  'campaign_id',
  'campaign_code',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'referrer_id',
] as const satisfies readonly (keyof ApplicationSource)[];

/** The source fields as a schema's entries (each optional text): the staff row's and the webhook body's. */
export const applicationSourceEntries = Object.fromEntries(
  applicationSourceFields.map((field) => [field, v.optional(v.string())]),
) as Record<(typeof applicationSourceFields)[number], v.OptionalSchema<v.StringSchema<undefined>, undefined>>;

export const campaignStatuses = ['active', 'paused'] as const;
export type CampaignStatus = (typeof campaignStatuses)[number];

const districtNames = new Set(districts.map((d) => d.en));
const constituenciesOf = new Map(districts.map((d) => [d.en, new Set(d.constituencies.map((c) => c.en))]));
const name = v.pipe(
  v.string('REQUIRED'),
  v.trim(),
  v.minLength(1, 'REQUIRED'),
  v.maxLength(80, 'TOO_LONG'),
  v.check(isPlainText, 'INVALID_CHARACTERS'),
);
const day = v.pipe(
  v.string('REQUIRED'),
  v.check((s) => parseDate(s) !== undefined, 'INVALID_DATE'),
);

const campaignFields = requestObject({
  name_en: name,
  name_ta: name,
  kind: v.picklist(campaignKinds, 'REQUIRED'),
  district: v.optional(
    v.pipe(
      v.string(),
      v.check((s) => districtNames.has(s), 'INVALID'),
    ),
  ),
  constituency: v.optional(v.string()),
  starts_on: day,
  ends_on: day,
});

/** POST /api/admin/campaigns. A coordinator must name one of their districts (checked on the server). */
export const campaignInputSchema = v.pipe(
  campaignFields,
  crossCheck<v.InferOutput<typeof campaignFields>>((c, addIssue) => {
    if (c.starts_on > c.ends_on) addIssue('ends_on', 'INVALID_RANGE');
    if (c.constituency !== undefined) {
      if (!c.district) addIssue('constituency', 'DISTRICT_REQUIRED');
      else if (!constituenciesOf.get(c.district)?.has(c.constituency)) addIssue('constituency', 'INVALID');
    }
  }),
);
export type CampaignInput = v.InferOutput<typeof campaignInputSchema>;

/** PATCH /api/admin/campaigns/{id}: pause or resume. */
export const campaignStatusInputSchema = requestObject({ status: v.picklist(campaignStatuses, 'INVALID') });

export const campaignSchema = v.object({
  id: v.string(),
  code: v.string(),
  name_en: v.string(),
  name_ta: v.string(),
  kind: v.picklist(campaignKinds),
  district: v.optional(v.string()),
  constituency: v.optional(v.string()),
  starts_on: v.string(),
  ends_on: v.string(),
  status: v.picklist(campaignStatuses),
  created_at: v.string(),
});
export type Campaign = v.InferOutput<typeof campaignSchema>;
export const campaignListSchema = v.object({ items: v.array(campaignSchema) });

/** A campaign's code counts on `today` (an IST day, YYYY-MM-DD) when active and within its dates. */
export function campaignIsLive(campaign: Pick<Campaign, 'status' | 'starts_on' | 'ends_on'>, today: string): boolean {
  return campaign.status === 'active' && campaign.starts_on <= today && today <= campaign.ends_on;
}

/** The public link of a campaign (or a referral) on a site origin such as `https://join.example.org`. */
export function campaignLink(origin: string, code: string): string {
  return `${origin.replace(/\/+$/, '')}/?${attributionParams.campaign}=${code}`;
}
export function referralLink(origin: string, code: string): string {
  return `${origin.replace(/\/+$/, '')}/?${attributionParams.referral}=${code}`;
}
