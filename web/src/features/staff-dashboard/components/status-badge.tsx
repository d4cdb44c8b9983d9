import { useTranslation } from '../../../i18n/use-translation';
import type { ApplicationStatus } from '../../../../../rules/application-values';

/** The status as a word on its colour (pending amber, under review blue, approved green, rejected red). */
export function StatusBadge({ status }: { status: ApplicationStatus }) {
  const { t } = useTranslation('staff');
  return (
    <span className={`status-badge status-${status}`} data-status={status}>
      <span className="status-dot" aria-hidden="true" />
      {t(`status.${status}`)}
    </span>
  );
}
