import { useTranslation } from '../../../i18n/use-translation';
import { formatCount } from '../../../lib/staff-format';
import { pageCount } from '../utils/list-params';

/** Previous, Next and "Page X of Y • N total" (exact for the active filters). */
export function Pager({
  page,
  pageSize,
  total,
  hasNext,
  busy,
  onPrevious,
  onNext,
}: {
  page: number;
  pageSize: number;
  total: number;
  hasNext: boolean;
  busy: boolean;
  onPrevious: () => void;
  onNext: () => void;
}) {
  const { t } = useTranslation('staff');
  const pages = Math.max(pageCount(total, pageSize), page);
  return (
    <nav className="pager" aria-label={t('pager.label')}>
      <button type="button" className="button button-secondary" onClick={onPrevious} disabled={busy || page <= 1}>
        <span aria-hidden="true">←</span> {t('pager.previous')}
      </button>
      <p className="pager-text" data-testid="pager-text" aria-live="polite">
        {t('pager.text', { page: formatCount(page), pages: formatCount(pages), total: formatCount(total) })}
      </p>
      <button type="button" className="button button-secondary" onClick={onNext} disabled={busy || !hasNext}>
        {t('pager.next')} <span aria-hidden="true">→</span>
      </button>
    </nav>
  );
}
