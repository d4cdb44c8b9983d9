import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pageSizes, type ApplicationRow, type StatusChangeResponse } from '../../../../../rules/staff-api';
import { Spinner } from '../../../components/spinner';
import { errorText } from '../../../i18n/error-text';
import { useStaffSession } from '../../../lib/staff-session';
import { useApplications } from '../hooks/use-applications';
import { useListParams } from '../hooks/use-list-params';
import type { PageSize } from '../utils/list-params';
import { ApplicationsTable } from './applications-table';
import { BulkBar } from './bulk-bar';
import { EraseDialog } from './erase-dialog';
import { ExportButton } from './export-button';
import { FiltersForm } from './filters-form';
import { Pager } from './pager';
import { StatsCards } from './stats-cards';

/** Row ids chosen for one listing; a new listing (filters, page) starts with none. */
interface Scoped {
  readonly queryKey: string;
  readonly ids: ReadonlySet<string>;
}

const none: ReadonlySet<string> = new Set();

/** The dashboard (spec 2.3): totals, filters, the page of applications, review and export. */
export function Dashboard() {
  const { t } = useTranslation('staff');
  const { t: tc } = useTranslation();
  const session = useStaffSession();
  const canReview = session.role === 'admin';
  const id = useId();
  const nav = useListParams();
  const { params } = nav;
  const [reloadKey, setReloadKey] = useState(0);
  const list = useApplications(params, reloadKey);
  const [selection, setSelection] = useState<Scoped | null>(null);
  const [expansion, setExpansion] = useState<Scoped | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [eraseTarget, setEraseTarget] = useState<ApplicationRow | null>(null);

  const selected = selection?.queryKey === list.queryKey ? selection.ids : none;
  const expanded = expansion?.queryKey === list.queryKey ? expansion.ids : none;
  const rows = list.data?.items ?? [];
  // Only ids still on the page count (a row may have gone since it was checked).
  const selectedIds = rows.filter((r) => selected.has(r.id)).map((r) => r.id);

  const reload = () => setReloadKey((n) => n + 1);
  const update = (set: ReadonlySet<string>, ids: string[], on: boolean) => {
    const next = new Set(set);
    for (const rowId of ids) {
      if (on) next.add(rowId);
      else next.delete(rowId);
    }
    return next;
  };
  const onSelect = (ids: string[], on: boolean) =>
    setSelection({ queryKey: list.queryKey, ids: update(selected, ids, on) });
  const onToggle = (rowId: string) =>
    setExpansion({ queryKey: list.queryKey, ids: update(expanded, [rowId], !expanded.has(rowId)) });

  const onBulkDone = (result: StatusChangeResponse) => {
    setSelection(null);
    setNotice(
      [
        ...(result.changed.length > 0 ? [t('bulk.done', { count: result.changed.length })] : []),
        ...(result.unchanged.length > 0 ? [t('bulk.unchanged', { count: result.unchanged.length })] : []),
        ...(result.notFound.length > 0 ? [t('bulk.notFound', { count: result.notFound.length })] : []),
      ].join(' '),
    );
    reload();
  };
  const onErased = (row: ApplicationRow) => {
    setEraseTarget(null);
    setSelection((now) => (now ? { ...now, ids: update(now.ids, [row.id], false) } : now));
    setExpansion((now) => (now ? { ...now, ids: update(now.ids, [row.id], false) } : now));
    setNotice(t('erase.done', { name: row.name }));
    reload();
  };

  const firstLoad = list.loading && !list.data;

  return (
    <div className="dashboard">
      <div className="dashboard-head">
        <h1 className="page-title">{t('dashboard.title')}</h1>
        <p className="page-intro">{t('dashboard.intro')}</p>
      </div>

      <StatsCards reloadKey={reloadKey} />

      <FiltersForm key={JSON.stringify(params.filters)} filters={params.filters} onApply={nav.applyFilters} />

      <div className="toolbar">
        <div className="toolbar-size">
          <label className="field-label" htmlFor={`${id}-size`}>
            {t('table.rowsPerPage')}
          </label>
          <select
            id={`${id}-size`}
            className="input select select-compact"
            value={params.pageSize}
            onChange={(event) => nav.setPageSize(Number(event.target.value) as PageSize)}
          >
            {pageSizes.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </div>
        <ExportButton filters={params.filters} />
      </div>

      <div role="status" className="dashboard-notice">
        {notice && <p className="alert alert-success">{notice}</p>}
      </div>

      {canReview && selectedIds.length > 0 && (
        <BulkBar ids={selectedIds} onClear={() => setSelection(null)} onDone={onBulkDone} />
      )}

      {list.error ? (
        <div className="alert alert-error" role="alert">
          <p className="alert-line">{t('table.loadFailed')}</p>
          <p className="alert-detail">{errorText(tc, list.error)}</p>
          <button type="button" className="button button-secondary alert-action" onClick={reload}>
            {t('table.retry')}
          </button>
        </div>
      ) : firstLoad ? (
        <Spinner label={t('table.loading')} />
      ) : rows.length === 0 ? (
        <div className="empty" data-testid="empty-state">
          <p className="empty-title">{t('table.emptyTitle')}</p>
          <p className="empty-body">{t('table.emptyBody')}</p>
        </div>
      ) : (
        <div className="table-wrap">
          {list.loading && (
            <div className="table-busy">
              <Spinner label={t('table.loading')} />
            </div>
          )}
          <ApplicationsTable
            rows={rows}
            canReview={canReview}
            selected={selected}
            onSelect={onSelect}
            expanded={expanded}
            onToggle={onToggle}
            reloadKey={reloadKey}
            onChanged={reload}
            onErase={setEraseTarget}
            busy={list.loading}
          />
        </div>
      )}

      {list.data && !list.error && (
        <Pager
          page={params.page}
          pageSize={params.pageSize}
          total={list.data.total}
          hasNext={list.data.nextCursor !== undefined}
          busy={list.loading}
          onPrevious={nav.previous}
          onNext={() => list.data?.nextCursor && nav.next(list.data.nextCursor)}
        />
      )}

      {eraseTarget && <EraseDialog target={eraseTarget} onClose={() => setEraseTarget(null)} onErased={onErased} />}
    </div>
  );
}
