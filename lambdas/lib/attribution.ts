import { type ApplicationSource, campaignIsLive, cleanAttribution } from '../../rules/campaigns';
import { istDay } from '../../rules/ist';
import type { CampaignLookup } from '../adapters/campaigns';
import { logger } from './logger';

// Where an applicant came from, frozen on the application at submit (issue 19): the
// campaign their code named when it counted that day (IST: active and within its dates),
// the UTM values of their first visit, and the member whose referral code it was. Nothing
// here ever refuses or delays an application for long: a malformed part is dropped by
// `cleanAttribution`, an unknown, paused, ended or future code is dropped silently, and a
// failed read drops what it would have found (logged, with no code or value).

export async function resolveSource(
  lookup: CampaignLookup | undefined,
  raw: unknown,
  now: Date,
): Promise<ApplicationSource> {
  const attribution = cleanAttribution(raw);
  const { utm_source, utm_medium, utm_campaign } = attribution;
  const quietly = async <T>(part: string, read: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await read();
    } catch (error) {
      logger.warn('Attribution lookup failed: the application goes without it', {
        part,
        errorName: (error as Error).name,
      });
      return undefined;
    }
  };
  const [campaign, referrer] = await Promise.all([
    lookup && attribution.campaign ? quietly('campaign', () => lookup.byCode(attribution.campaign!)) : undefined,
    lookup && attribution.referral ? quietly('referral', () => lookup.referrer(attribution.referral!)) : undefined,
  ]);
  const live = campaign && campaignIsLive(campaign, istDay(now)) ? campaign : undefined;
  return {
    ...(live && { campaign_id: live.id, campaign_code: live.code }),
    ...(utm_source && { utm_source }),
    ...(utm_medium && { utm_medium }),
    ...(utm_campaign && { utm_campaign }),
    ...(referrer && { referrer_id: referrer }),
  };
}
