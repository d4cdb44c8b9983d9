import './grievances.css';
import { useState } from 'react';
import { addStaffGrievanceTranslations } from '../../../i18n/staff-grievances';
import { useTranslation } from '../../../i18n/use-translation';
import { useStaffSession } from '../../../lib/staff-session';
import { useGrievances } from '../hooks/use-grievances';
import { GrievanceCard } from './grievance-card';

/**
 * /admin/grievances (issue 21): the grievances not yet closed that this staff member may
 * see, the soonest due first, each with its days left; admins and coordinators answer and
 * close them (a viewer sees no controls; the server refuses them anyway).
 */
export function GrievancesPage() {
  const { t, i18n } = useTranslation('staff');
  // Before any child renders: the page's strings come with its own chunk.
  useState(() => addStaffGrievanceTranslations(i18n));
  const { role } = useStaffSession();
  const grievances = useGrievances();
  const [notice, setNotice] = useState<string | null>(null);
  const now = new Date();

  return (
    <section className="staff-grievances" aria-labelledby="grievances-title">
      <h1 id="grievances-title" className="page-title">
        {t('grievances.title')}
      </h1>
      <p className="page-intro">{t('grievances.intro')}</p>
      {notice && (
        <p className="alert alert-success grievance-wrap" role="status" data-testid="grievance-notice">
          {notice}
        </p>
      )}
      {grievances.isPending && <p className="muted">{t('grievances.loading')}</p>}
      {grievances.isError && (
        <p className="alert alert-error" role="alert">
          {t('grievances.loadFailed')}{' '}
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() => void grievances.refetch()}
          >
            {t('grievances.retry')}
          </button>
        </p>
      )}
      {grievances.data?.length === 0 && <p className="muted">{t('grievances.empty')}</p>}
      {grievances.data && grievances.data.length > 0 && (
        <ul className="grievance-list" aria-label={t('grievances.title')}>
          {grievances.data.map((grievance) => (
            <GrievanceCard
              key={grievance.id}
              grievance={grievance}
              now={now}
              canChange={role !== 'viewer'}
              onDone={setNotice}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
