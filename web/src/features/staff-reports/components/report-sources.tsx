import { applicationStatuses } from '../../../../../rules/application-values';
import type { ReportSummary } from '../../../../../rules/report';
import { useTranslation } from '../../../i18n/use-translation';
import type { Campaign } from '../../../../../rules/campaigns';
import { campaignLabel } from '../../../lib/staff-campaigns';
import { districtLabel, formatCount } from '../../../lib/staff-format';
import { topCampaignData } from '../utils/chart-data';
import { PairBarsChart } from './pair-bars-chart';

/**
 * The report's tiles: the total, each status, (issue 19) the applications referred by
 * members and (issue 20) the members: approved applications with a member number.
 */
export function ReportTiles({ data }: { data: ReportSummary }) {
  const { t } = useTranslation('staff');
  return (
    <section className="report-tiles stats" aria-label={t('reports.total')}>
      <div className="stat-card stat-total" data-testid="tile-total">
        <span className="stat-label">{t('reports.total')}</span>
        <span className="stat-value">{formatCount(data.total)}</span>
      </div>
      {applicationStatuses.map((status) => (
        <div key={status} className={`stat-card stat-${status}`} data-testid={`tile-${status}`}>
          <span className="stat-label">
            <span className="status-dot" aria-hidden="true" />
            {t(`status.${status}`)}
          </span>
          <span className="stat-value">{formatCount(data.byStatus[status])}</span>
        </div>
      ))}
      {data.referrals && (
        <div className="stat-card stat-referrals" data-testid="tile-referrals">
          <span className="stat-label">{t('reports.referrals')}</span>
          <span className="stat-value">{formatCount(data.referrals.applications)}</span>
          <span className="stat-note">
            {t('reports.referralsApproved', { n: formatCount(data.referrals.approved) })}
          </span>
        </div>
      )}
      {data.members !== undefined && (
        <div className="stat-card stat-members" data-testid="tile-members">
          <span className="stat-label">{t('reports.members')}</span>
          <span className="stat-value">{formatCount(data.members)}</span>
        </div>
      )}
    </section>
  );
}

/** Where members came from (issue 19): "Top campaigns" and "Top recruiters", each once it has a row. */
export function SourceCharts({ data, campaigns }: { data: ReportSummary; campaigns: readonly Campaign[] }) {
  const { t, i18n } = useTranslation('staff');
  const lang = i18n.language;
  const district = (name: string) => districtLabel(name, lang, t('reports.unknown'));
  return (
    <>
      {/* Shown once an application came through a campaign: until then it would be an empty card. */}
      {topCampaignData(data).length > 0 && (
        <PairBarsChart
          id="campaigns"
          title={t('reports.topCampaigns')}
          column={t('reports.campaignColumn')}
          counted={t('reports.applications')}
          data={topCampaignData(data).map((c) => ({ ...c, label: campaignLabel(campaigns, c.id, lang) }))}
        />
      )}
      {/* Shown once a member's referral brought an approved member. */}
      {(data.topReferrers ?? []).length > 0 && (
        <PairBarsChart
          id="referrers"
          title={t('reports.topReferrers')}
          column={t('reports.memberColumn')}
          counted={t('reports.brought')}
          data={(data.topReferrers ?? []).map((r) => ({
            label:
              r.name ??
              (r.district
                ? t('reports.otherDistrictMember', { district: district(r.district) })
                : t('reports.unknownMember')),
            applications: r.brought,
            approved: r.approved,
          }))}
        />
      )}
    </>
  );
}
