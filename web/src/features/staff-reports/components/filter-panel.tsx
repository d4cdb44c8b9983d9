import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { applicationStatuses } from '../../../../../rules/application';
import type { ReportParamsUpdate } from '../hooks/use-report-params';
import { districtLabel } from '../utils/format';
import {
  defaultReportParams,
  type ReportParams,
  statusFilterLabel,
  toggleDistrict,
  toggleStatus,
} from '../utils/report-params';

/** From, To, statuses and districts; every change applies at once (and goes to the URL). */
export function FilterPanel({
  params,
  districts,
  onChange,
}: {
  params: ReportParams;
  districts: readonly string[];
  onChange: (update: ReportParamsUpdate) => void;
}) {
  const { t, i18n } = useTranslation('staff');
  const id = useId();
  const tamil = i18n.language === 'ta';
  return (
    <form className="report-filters" aria-label={t('reports.filters')} onSubmit={(e) => e.preventDefault()}>
      <div className="report-filter-dates">
        <div className="field">
          <label className="field-label" htmlFor={`${id}-from`}>
            {t('reports.from')}
          </label>
          <input
            id={`${id}-from`}
            className="input"
            type="date"
            name="from"
            value={params.from ?? ''}
            max={params.to ?? undefined}
            onChange={(e) => {
              const from = e.target.value || null;
              onChange((p) => ({ ...p, from }));
            }}
          />
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-to`}>
            {t('reports.to')}
          </label>
          <input
            id={`${id}-to`}
            className="input"
            type="date"
            name="to"
            value={params.to ?? ''}
            min={params.from ?? undefined}
            onChange={(e) => {
              const to = e.target.value || null;
              onChange((p) => ({ ...p, to }));
            }}
          />
        </div>
      </div>
      <fieldset className="report-filter-group" data-testid="status-filter">
        <legend className="field-label">{t('reports.statuses')}</legend>
        <div className="report-checks">
          {applicationStatuses.map((status) => {
            const checked = params.statuses.includes(status);
            return (
              <label key={status} className={`report-check status-${status}`}>
                <input
                  type="checkbox"
                  name="status"
                  value={status}
                  checked={checked}
                  // The last status stays on: none would be an empty report by mistake.
                  disabled={checked && params.statuses.length === 1}
                  onChange={(e) => {
                    const on = e.target.checked;
                    onChange((p) => toggleStatus(p, status, on));
                  }}
                />
                {tamil ? t(`status.${status}`) : statusFilterLabel(status)}
              </label>
            );
          })}
        </div>
      </fieldset>
      <fieldset className="report-filter-group" data-testid="district-filter">
        <legend className="field-label">{t('reports.districts')}</legend>
        {districts.length === 0 ? (
          <p className="muted">{t('reports.noDistricts')}</p>
        ) : (
          <div className="report-checks report-checks-districts">
            {districts.map((district) => (
              <label key={district} className="report-check">
                <input
                  type="checkbox"
                  name="district"
                  value={district}
                  checked={params.districts.includes(district)}
                  onChange={(e) => {
                    const on = e.target.checked;
                    onChange((p) => toggleDistrict(p, district, on));
                  }}
                />
                {districtLabel(district, i18n.language, t('reports.unknown'))}
              </label>
            ))}
          </div>
        )}
        {params.districts.length === 0 && districts.length > 0 && (
          <p className="field-hint">{t('reports.allDistricts')}</p>
        )}
      </fieldset>
      <div className="report-filter-actions">
        {/* Filters apply live; Apply only submits the form, which does nothing more. */}
        <button type="submit" className="button button-secondary">
          {t('reports.apply')}
        </button>
        <button type="button" className="button button-ghost" onClick={() => onChange(defaultReportParams)}>
          {t('reports.reset')}
        </button>
      </div>
    </form>
  );
}
