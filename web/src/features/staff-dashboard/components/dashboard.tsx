import { useId, useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { pageSizes, type ApplicationRow, type StatusChangeResponse } from '../../../../../rules/staff-api';
import { Spinner } from '../../../components/spinner';
import { StaffScopeNote } from '../../../components/staff-scope-note';
import { errorText } from '../../../i18n/error-text';
import { useStaffSession } from '../../../lib/staff-session';
import { type ApplicationsState, useApplications } from '../hooks/use-applications';
import { useListParams } from '../hooks/use-list-params';
import type { ListParams, PageSize } from '../utils/list-params';
import { ApplicationsTable } from './applications-table';
import { BulkBar } from './bulk-bar';
import { EraseDialog } from './erase-dialog';
import { ExportButton } from './export-button';
import { useCampaigns } from '../../../lib/staff-campaigns';
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
  const session = useStaffSession();
  const canReview = session.role !== 'viewer';
  const nav = useListParams();
  const { params } = nav;
  const list = useApplications(params);
  const campaigns = useCampaigns();
  const [selection, setSelection] = useState<Scoped | null>(null);
  const [expansion, setExpansion] = useState<Scoped | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [eraseTarget, setEraseTarget] = useState<ApplicationRow | null>(null);

  const selected = selection?.queryKey === list.queryKey ? selection.ids : none;
  const expanded = expansion?.queryKey === list.queryKey ? expansion.ids : none;
  const rows = list.data?.items ?? [];
  // Only ids still on the page count (a row may have gone since it was checked).
  const selectedIds = rows.filter((r) => selected.has(r.id)).map((r) => r.id);

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
    // Those the server had no time for stay selected, to apply again.
    setSelection(result.notDone.length > 0 ? { queryKey: list.queryKey, ids: new Set(result.notDone) } : null);
    setNotice(
      [
        ...(result.changed.length > 0 ? [t('bulk.done', { count: result.changed.length })] : []),
        ...(result.unchanged.length > 0 ? [t('bulk.unchanged', { count: result.unchanged.length })] : []),
        ...(result.notFound.length > 0 ? [t('bulk.notFound', { count: result.notFound.length })] : []),
        ...(result.notDone.length > 0 ? [t('bulk.notDone', { count: result.notDone.length })] : []),
      ].join(' '),
    );
  };
  const onErased = (row: ApplicationRow) => {
    setEraseTarget(null);
    setSelection((now) => (now ? { ...now, ids: update(now.ids, [row.id], false) } : now));
    setExpansion((now) => (now ? { ...now, ids: update(now.ids, [row.id], false) } : now));
    setNotice(t('erase.done', { name: row.name }));
  };

  return (
    <div className="dashboard">
      <div className="dashboard-head">
        <h1 className="page-title">{t('dashboard.title')}</h1>
        <p className="page-intro">{t('dashboard.intro')}</p>
        <StaffScopeNote />
      </div>

      <StatsCards />

      <FiltersForm
        key={JSON.stringify(params.filters)}
        filters={params.filters}
        onApply={nav.applyFilters}
        campaigns={campaigns}
      />

      <Toolbar params={params} onPageSize={nav.setPageSize} />

      <div role="status" className="dashboard-notice">
        {notice && <p className="alert alert-success">{notice}</p>}
      </div>

      {canReview && selectedIds.length > 0 && (
        <BulkBar ids={selectedIds} onClear={() => setSelection(null)} onDone={onBulkDone} />
      )}

      <ListArea
        list={list}
        searching={params.filters.q !== undefined}
        canReview={canReview}
        selected={selected}
        onSelect={onSelect}
        expanded={expanded}
        onToggle={onToggle}
        onErase={setEraseTarget}
      />

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

/** Rows per page and the export, above the table. */
function Toolbar({ params, onPageSize }: { params: ListParams; onPageSize: (size: PageSize) => void }) {
  const { t } = useTranslation('staff');
  const id = useId();
  return (
    <div className="toolbar">
      <div className="toolbar-size">
        <label className="field-label" htmlFor={`${id}-size`}>
          {t('table.rowsPerPage')}
        </label>
        <select
          id={`${id}-size`}
          className="input select select-compact"
          value={params.pageSize}
          onChange={(event) => onPageSize(Number(event.target.value) as PageSize)}
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
  );
}

/**
 * The page of applications, or why there is none: a search matching too many to list
 * (type more; trying again would not help), a failure (with Retry), the first load, or
 * no match (and, after a search, what a search matches: the start of a word, not its middle).
 */
function ListArea({
  list,
  searching,
  ...table
}: { list: ApplicationsState; searching: boolean } & Omit<Parameters<typeof ApplicationsTable>[0], 'rows' | 'busy'>) {
  const { t } = useTranslation('staff');
  const { t: tc } = useTranslation();
  const rows = list.data?.items ?? [];
  if (list.error === 'SEARCH_TOO_BROAD') {
    return (
      <div className="alert alert-error" role="alert" data-testid="search-too-broad">
        <p className="alert-line">{errorText(tc, list.error)}</p>
      </div>
    );
  }
  if (list.error) {
    return (
      <div className="alert alert-error" role="alert">
        <p className="alert-line">{t('table.loadFailed')}</p>
        <p className="alert-detail">{errorText(tc, list.error)}</p>
        <button type="button" className="button button-secondary alert-action" onClick={list.retry}>
          {t('table.retry')}
        </button>
      </div>
    );
  }
  if (list.loading && !list.data) return <Spinner label={t('table.loading')} />;
  if (rows.length === 0) {
    return (
      <div className="empty" data-testid="empty-state">
        <p className="empty-title">{t('table.emptyTitle')}</p>
        <p className="empty-body">{t('table.emptyBody')}</p>
        {searching && <p className="empty-body empty-search">{t('table.emptySearch')}</p>}
      </div>
    );
  }
  return (
    <div className="table-wrap">
      {list.loading && (
        <div className="table-busy">
          <Spinner label={t('table.loading')} />
        </div>
      )}
      <ApplicationsTable rows={rows} busy={list.loading} {...table} />
    </div>
  );
}
