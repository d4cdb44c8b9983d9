import * as v from 'valibot';
import {
  type Campaign,
  type CampaignInput,
  campaignInputSchema,
  campaignIsLive,
  type CampaignKind,
} from '../../../../../rules/campaigns';
import { districts } from '../../../../../rules/districts';
import { issuePath } from '../../../../../rules/schema';

/** What the list shows: live, paused, over, or not begun (by today's IST day). */
export type CampaignPhase = 'active' | 'paused' | 'ended' | 'notStarted';

/** A campaign's phase on `today` (YYYY-MM-DD, IST): an ended one is ended whether paused or not. */
export function campaignPhase(
  campaign: Pick<Campaign, 'status' | 'starts_on' | 'ends_on'>,
  today: string,
): CampaignPhase {
  if (campaignIsLive(campaign, today)) return 'active';
  if (today > campaign.ends_on) return 'ended';
  if (campaign.status === 'paused') return 'paused';
  return 'notStarted';
}

/** The create form's values: '' for a district or constituency not chosen (English names, as stored). */
export interface CampaignDraft {
  readonly name_en: string;
  readonly name_ta: string;
  readonly kind: CampaignKind | '';
  readonly district: string;
  readonly constituency: string;
  readonly starts_on: string;
  readonly ends_on: string;
}

export const emptyDraft: CampaignDraft = {
  name_en: '',
  name_ta: '',
  kind: '',
  district: '',
  constituency: '',
  starts_on: '',
  ends_on: '',
};

/** The body the draft makes: empty optional fields left out. */
function draftBody(draft: CampaignDraft): Record<string, string> {
  const body: Record<string, string> = {};
  for (const key of Object.keys(draft) as (keyof CampaignDraft)[]) {
    const value = draft[key];
    if (value !== '') body[key] = value;
  }
  return body;
}

/**
 * The draft checked by the shared schema (the server's own): the input to send, or each
 * field's first error code. A coordinator must also name a district (the server checks
 * it is one of theirs).
 */
export function checkDraft(
  draft: CampaignDraft,
  needsDistrict: boolean,
): { readonly input: CampaignInput } | { readonly errors: Record<string, string> } {
  const result = v.safeParse(campaignInputSchema, draftBody(draft));
  const errors: Record<string, string> = {};
  if (!result.success) {
    for (const issue of result.issues) {
      const field = issuePath(issue) || 'form';
      errors[field] ??= issue.message;
    }
  }
  if (needsDistrict && !draft.district) errors.district ??= 'REQUIRED';
  if (Object.keys(errors).length > 0 || !result.success) return { errors };
  return { input: result.output };
}

const byName = new Map(districts.map((d) => [d.en, d]));

/** A stored (English) constituency name in the screen's language. */
export function constituencyName(district: string | undefined, constituency: string, language: string): string {
  if (language !== 'ta') return constituency;
  return byName.get(district ?? '')?.constituencies.find((c) => c.en === constituency)?.ta ?? constituency;
}

/** A district's constituencies for a select, in the screen's language (value: the English name). */
export function constituencyOptions(district: string, language: string): { value: string; name: string }[] {
  const found = byName.get(district);
  if (!found) return [];
  return found.constituencies.map((c) => ({ value: c.en, name: language === 'ta' ? c.ta : c.en }));
}
