import { grievanceDaysLeft } from '../../../../../rules/grievances';
import { useTranslation } from '../../../i18n/use-translation';

/** Days left to the due date in IST days; past it, "overdue", marked as an error. */
export function DueBadge({ dueAt, now }: { dueAt: string; now: Date }) {
  const { t } = useTranslation('staff');
  const days = grievanceDaysLeft(dueAt, now);
  const tone = days < 0 ? 'overdue' : days <= 7 ? 'soon' : 'later';
  const text =
    days < 0
      ? t('grievances.overdue', { count: -days })
      : days === 0
        ? t('grievances.dueToday')
        : t('grievances.daysLeft', { count: days });
  return (
    <span className={`grievance-due grievance-due-${tone}`} data-testid="grievance-days">
      {text}
    </span>
  );
}
