import './campaigns.css';
import { useState } from 'react';
import { istDay } from '../../../../../rules/ist';
import { addCampaignTranslations } from '../../../i18n/staff-campaigns';
import { useTranslation } from '../../../i18n/use-translation';
import { useStaffSession } from '../../../lib/staff-session';
import { useCampaigns, useSetCampaignStatus } from '../hooks/use-campaigns';
import { CampaignCard } from './campaign-card';
import { CampaignForm } from './campaign-form';

/**
 * /admin/campaigns (issue 19): every campaign this staff member may see, with its link,
 * QR code and poster; admins and coordinators create, pause and resume (a viewer sees
 * no controls; the server refuses them anyway).
 */
export function CampaignsPage() {
  const { t, i18n } = useTranslation('staff');
  // Before any child renders: the page's strings come with its own chunk.
  useState(() => addCampaignTranslations(i18n));
  const { role } = useStaffSession();
  const campaigns = useCampaigns();
  const status = useSetCampaignStatus();
  const [acting, setActing] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const canChange = role !== 'viewer';
  const today = istDay(new Date());

  return (
    <section className="staff-campaigns" aria-labelledby="campaigns-title">
      <h1 id="campaigns-title" className="page-title">
        {t('campaigns.title')}
      </h1>
      <p className="page-intro">{t('campaigns.intro')}</p>
      {notice && (
        <p className="alert alert-success campaign-wrap" role="status" data-testid="campaign-notice">
          {notice}
        </p>
      )}
      {canChange && (
        <CampaignForm
          onCreated={(campaign) =>
            setNotice(
              t('campaigns.created', {
                name: i18n.language === 'ta' ? campaign.name_ta : campaign.name_en,
                code: campaign.code,
              }),
            )
          }
        />
      )}
      {campaigns.isPending && <p className="muted">{t('campaigns.loading')}</p>}
      {campaigns.isError && (
        <p className="alert alert-error" role="alert">
          {t('campaigns.loadFailed')}{' '}
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() => void campaigns.refetch()}
          >
            {t('campaigns.retry')}
          </button>
        </p>
      )}
      {campaigns.data?.length === 0 && <p className="muted">{t('campaigns.empty')}</p>}
      {campaigns.data && campaigns.data.length > 0 && (
        <ul className="campaign-list" aria-label={t('campaigns.title')}>
          {campaigns.data.map((campaign) => (
            <CampaignCard
              key={campaign.id}
              campaign={campaign}
              today={today}
              canChange={canChange}
              busy={status.isPending && acting === campaign.id}
              failed={status.isError && acting === campaign.id}
              onStatus={(next) => {
                setActing(campaign.id);
                status.mutate({ id: campaign.id, status: next });
              }}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
