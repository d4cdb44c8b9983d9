import { type Campaign, campaignLink } from '../../../../../rules/campaigns';
import { useTranslation } from '../../../i18n/use-translation';
import { districtName, formatDay } from '../../../lib/staff-format';
import { type CampaignPhase, campaignPhase, constituencyName } from '../utils/campaign-state';
import { CampaignShare } from './campaign-share';

/**
 * One campaign: its name in the page's language, kind, place, dates and phase (by today's
 * IST day), pause or resume for those who may change it, and its link and QR code.
 */
export function CampaignCard({
  campaign,
  today,
  canChange,
  busy,
  failed,
  onStatus,
}: {
  campaign: Campaign;
  today: string;
  canChange: boolean;
  busy: boolean;
  failed: boolean;
  onStatus: (status: Campaign['status']) => void;
}) {
  const { t, i18n } = useTranslation('staff');
  const language = i18n.language;
  const phase: CampaignPhase = campaignPhase(campaign, today);
  const place = campaign.district
    ? [
        campaign.constituency && constituencyName(campaign.district, campaign.constituency, language),
        districtName(campaign.district, language),
      ]
        .filter(Boolean)
        .join(', ')
    : t('campaigns.anyDistrict');
  const name = language === 'ta' ? campaign.name_ta : campaign.name_en;
  return (
    <li className="card campaign-card" data-testid={`campaign-${campaign.code}`}>
      <div className="card-body">
        <div className="campaign-head">
          <h2 className="campaign-name" lang={language}>
            {name}
          </h2>
          <span className={`campaign-phase campaign-phase-${phase}`}>{t(`campaigns.phase.${phase}`)}</span>
        </div>
        <dl className="staff-member-facts">
          <div>
            <dt>{t('campaigns.kind')}</dt>
            <dd>{t(`campaigns.kinds.${campaign.kind}`)}</dd>
          </div>
          <div>
            <dt>{t('campaigns.place')}</dt>
            <dd>{place}</dd>
          </div>
          <div>
            <dt>{t('campaigns.dates')}</dt>
            <dd>
              {formatDay(campaign.starts_on, language)} – {formatDay(campaign.ends_on, language)}
            </dd>
          </div>
          <div>
            <dt>{t('campaigns.code')}</dt>
            <dd>
              <code>{campaign.code}</code>
            </dd>
          </div>
        </dl>
        {canChange && phase !== 'ended' && (
          <div className="staff-actions">
            <button
              type="button"
              className="button button-secondary button-small"
              disabled={busy}
              onClick={() => onStatus(campaign.status === 'paused' ? 'active' : 'paused')}
            >
              {busy
                ? t('campaigns.saving')
                : campaign.status === 'paused'
                  ? t('campaigns.resume')
                  : t('campaigns.pause')}
            </button>
          </div>
        )}
        {failed && (
          <p className="alert alert-error" role="alert">
            {t('campaigns.changeFailed')}
          </p>
        )}
        <CampaignShare campaign={campaign} link={campaignLink(window.location.origin, campaign.code)} />
      </div>
    </li>
  );
}
