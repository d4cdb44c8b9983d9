import { isPlainText } from './text';

// The part of issue 19's contract the public page runs on its first view, apart from
// rules/campaigns.ts (which re-exports it): that module's schemas pull in the 38 districts
// and their 234 constituencies (about 6 KB gzip), which a campaign link's first view must
// not wait for. Only what the page keeps and sends, and how codes look.

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
