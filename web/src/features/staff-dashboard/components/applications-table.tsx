import { type RefObject, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import type { ApplicationRow } from '../../../../../rules/staff-api';
import { districtName, formatDateTimeParts, formatPhone } from '../../../lib/staff-format';
import { ApplicationDetails } from './application-details';
import { StatusBadge } from './status-badge';

function SelectAll({
  rows,
  selected,
  onChange,
}: {
  rows: readonly ApplicationRow[];
  selected: ReadonlySet<string>;
  onChange: (ids: string[], on: boolean) => void;
}) {
  const { t } = useTranslation('staff');
  const ref = useRef<HTMLInputElement>(null);
  const count = rows.filter((r) => selected.has(r.id)).length;
  const all = rows.length > 0 && count === rows.length;
  const some = count > 0 && !all;
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = some;
  }, [some]);
  return (
    <input
      ref={ref}
      type="checkbox"
      className="row-check"
      aria-label={t('table.selectAll')}
      checked={all}
      onChange={(event) =>
        onChange(
          rows.map((r) => r.id),
          event.target.checked,
        )
      }
    />
  );
}

/** True while the element's content is wider than the element (the table scrolls sideways). */
function useOverflowing(ref: RefObject<HTMLElement | null>): boolean {
  const [overflowing, setOverflowing] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setOverflowing(element.scrollWidth > element.clientWidth + 1));
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, [ref]);
  return overflowing;
}

/** An email breaks after its @ when the column is narrow, not in the middle of a word. */
function Email({ email }: { email: string }) {
  const at = email.indexOf('@');
  return (
    <span className="row-email">
      {at > 0 ? (
        <>
          {email.slice(0, at)}
          <wbr />
          {email.slice(at)}
        </>
      ) : (
        email
      )}
    </span>
  );
}

function SubmittedAt({ iso, language }: { iso: string; language: string }) {
  const { date, time } = formatDateTimeParts(iso, language);
  return (
    <time dateTime={iso} className="submitted-at">
      <span className="submitted-date">{date}</span>
      <span className="submitted-sep">, </span>
      <span className="submitted-time">{time}</span>
    </time>
  );
}

/** One application's row and, when open, its details row below it. */
function Row({
  row,
  language,
  columns,
  canReview,
  selected,
  onSelect,
  open,
  onToggle,
  onErase,
}: {
  row: ApplicationRow;
  language: string;
  columns: number;
  canReview: boolean;
  selected: boolean;
  onSelect: (ids: string[], on: boolean) => void;
  open: boolean;
  onToggle: (id: string) => void;
  onErase: (row: ApplicationRow) => void;
}) {
  const { t } = useTranslation('staff');
  const detailsId = `details-${row.id}`;
  return (
    <>
      <tr className={open ? 'row row-open' : 'row'} data-id={row.id} data-testid="application-row">
        {canReview && (
          <td className="col-check">
            <input
              type="checkbox"
              className="row-check"
              aria-label={t('table.selectRow', { name: row.name })}
              checked={selected}
              onChange={(event) => onSelect([row.id], event.target.checked)}
            />
          </td>
        )}
        <td className="col-name">
          <span className="row-name">{row.name}</span>
          {/* Shown instead of the Phone column on narrow screens (staff.css). */}
          <span className="row-phone">{formatPhone(row.phone_number)}</span>
          {row.email && <Email email={row.email} />}
          {/* Under the name, not a column of its own: the table keeps its width at every size. */}
          {row.member_number && (
            <span className="row-member">
              <span className="visually-hidden">{t('table.memberNumber')}: </span>
              {row.member_number}
            </span>
          )}
        </td>
        <td className="col-phone nowrap">{formatPhone(row.phone_number)}</td>
        <td>{districtName(row.revenue_district, language) ?? '—'}</td>
        <td>
          <StatusBadge status={row.application_status} />
        </td>
        <td className="col-submitted">
          <SubmittedAt iso={row.submitted_at} language={language} />
        </td>
        <td className="col-details">
          <button
            type="button"
            className="button button-small button-ghost"
            aria-expanded={open}
            aria-controls={open ? detailsId : undefined}
            aria-label={t('table.detailsOf', { name: row.name })}
            onClick={() => onToggle(row.id)}
          >
            <span className="details-caret" aria-hidden="true">
              {open ? '▾' : '▸'}
            </span>
            <span className="details-label">{t('table.showDetails')}</span>
          </button>
        </td>
      </tr>
      {open && (
        <tr className="details-row" id={detailsId}>
          <td colSpan={columns}>
            <ApplicationDetails row={row} canReview={canReview} onErase={onErase} />
          </td>
        </tr>
      )}
    </>
  );
}

/**
 * The page of applications: Name (with email and member number), Phone, District, Status, Submitted
 * (IST), and a Details button that opens the row below it. Admins get a checkbox per
 * row for the bulk bar. Wide content scrolls inside the table's own box.
 */
export function ApplicationsTable({
  rows,
  canReview,
  selected,
  onSelect,
  expanded,
  onToggle,
  onErase,
  busy,
}: {
  rows: readonly ApplicationRow[];
  canReview: boolean;
  selected: ReadonlySet<string>;
  onSelect: (ids: string[], on: boolean) => void;
  expanded: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onErase: (row: ApplicationRow) => void;
  busy: boolean;
}) {
  const { t, i18n } = useTranslation('staff');
  const language = i18n.resolvedLanguage ?? 'en';
  const scrollRef = useRef<HTMLDivElement>(null);
  const columns = canReview ? 7 : 6;
  const overflowing = useOverflowing(scrollRef);

  return (
    <>
      {overflowing && (
        <p className="table-scroll-hint" aria-hidden="true">
          {t('table.scrollHint')} <span>↔</span>
        </p>
      )}
      <div ref={scrollRef} className="table-scroll" tabIndex={0} role="region" aria-label={t('table.caption')}>
        <table className="applications" aria-busy={busy} data-testid="applications-table">
          <caption className="visually-hidden">{t('table.caption')}</caption>
          <thead>
            <tr>
              {canReview && (
                <th scope="col" className="col-check">
                  <SelectAll rows={rows} selected={selected} onChange={onSelect} />
                </th>
              )}
              <th scope="col" className="col-name">
                {t('table.name')}
              </th>
              <th scope="col" className="col-phone">
                {t('table.phone')}
              </th>
              <th scope="col">{t('table.district')}</th>
              <th scope="col">{t('table.status')}</th>
              <th scope="col">{t('table.submitted')}</th>
              <th scope="col" className="col-details">
                <span className="visually-hidden">{t('table.details')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <Row
                key={row.id}
                row={row}
                language={language}
                columns={columns}
                canReview={canReview}
                selected={selected.has(row.id)}
                onSelect={onSelect}
                open={expanded.has(row.id)}
                onToggle={onToggle}
                onErase={onErase}
              />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
