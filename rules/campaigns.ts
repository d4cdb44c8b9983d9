import * as v from 'valibot';
import { districts } from './districts';
import { parseDate } from './ist';
import { crossCheck, requestObject } from './schema';
import { isPlainText } from './text';

// Where members come from (issue 19): campaigns with a short code, a link and a QR code;
// the UTM parameters of the first visit; a member's referral link. Shared by the public
// page (what it keeps and sends), the staff area (campaign screens) and the server (what
// it checks and freezes on the application).

export const campaignKinds = ['college', 'event', 'online', 'other'] as const;
export type CampaignKind = (typeof campaignKinds)[number];

/** Lower-case letters and digits without the ones read alike (0/o, 1/l/i). */
export const CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
/** A campaign's code: 6 characters of CODE_ALPHABET (31^6 ≈ 887 million; printed on posters). */
export const CAMPAIGN_CODE_LENGTH = 6;
/** A member's referral code: 12 characters (about 59 bits), unguessable, never their number or id. */
export const REFERRAL_CODE_LENGTH = 12;

const codeOf = (length: number) => new RegExp(`^[${CODE_ALPHABET}]{${length}}$`);
const campaignCodePattern = codeOf(CAMPAIGN_CODE_LENGTH);
const referralCodePattern = codeOf(REFERRAL_CODE_LENGTH);
export const isCampaignCode = (s: unknown): s is string => typeof s === 'string' && campaignCodePattern.test(s);
export const isReferralCode = (s: unknown): s is string => typeof s === 'string' && referralCodePattern.test(s);

/** The query parameters the public page keeps from the first visit (`/?c=<code>&utm_source=…&r=<code>`). */
export const attributionParams = {
  campaign: 'c',
  referral: 'r',
  utmSource: 'utm_source',
  utmMedium: 'utm_medium',
  utmCampaign: 'utm_campaign',
} as const;
export const UTM_MAX_LENGTH = 100;

/** What the public page sends with the application: each part optional, each already well-formed. */
export interface Attribution {
  readonly campaign?: string;
  readonly referral?: string;
  readonly utm_source?: string;
  readonly utm_medium?: string;
  readonly utm_campaign?: string;
}

const utmValue = (value: unknown): string | undefined => {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed && trimmed.length <= UTM_MAX_LENGTH && isPlainText(trimmed) ? trimmed : undefined;
};

/**
 * The attribution in a submitted body (or a page's query), keeping only the well-formed
 * parts: a malformed code or UTM value is dropped silently, never an error (it must never
 * block an application). Codes are compared lower-case.
 */
export function cleanAttribution(raw: unknown): Attribution {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const r = raw as Record<string, unknown>;
  const lower = (s: unknown) => (typeof s === 'string' ? s.trim().toLowerCase() : undefined);
  const campaign = lower(r.campaign);
  const referral = lower(r.referral);
  const out: Record<string, string> = {};
  if (isCampaignCode(campaign)) out.campaign = campaign;
  if (isReferralCode(referral)) out.referral = referral;
  for (const key of ['utm_source', 'utm_medium', 'utm_campaign'] as const) {
    const value = utmValue(r[key]);
    if (value) out[key] = value;
  }
  return out;
}

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
