import { useTranslation } from '../i18n/use-translation';
import { scopedDistricts } from '../lib/staff-format';
import { useStaffSession } from '../lib/staff-session';

/**
 * The districts a coordinator or scoped viewer sees ("Chennai, Tiruvallur"), under a
 * page's title; nothing for staff who see every district. The server applies the scope
 * (lambdas/lib/staff.ts); this only says it.
 */
export function StaffScopeNote() {
  const { t, i18n } = useTranslation('staff');
  const session = useStaffSession();
  const districts = scopedDistricts(session.districts);
  if (!districts) return null;
  const names = districts.map((d) => (i18n.language === 'ta' ? d.ta : d.en)).join(', ');
  return (
    <p className="staff-scope-note" data-testid="staff-scope">
      <span className="staff-scope-label">{t('scope.label')}</span> {names}
    </p>
  );
}
