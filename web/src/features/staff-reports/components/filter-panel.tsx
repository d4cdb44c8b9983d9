import { useId, useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { applicationStatuses } from '../../../../../rules/application-values';
import { knownDistrictNames } from '../../../../../rules/report';
import { parseDate } from '../../../../../rules/ist';
import { CampaignSelect } from '../../../components/campaign-select';
import { DateInput } from '../../../components/date-input';
import type { Campaign } from '../../../../../rules/campaigns';
import type { ReportParamsUpdate } from '../hooks/use-report-params';
import { districtLabel } from '../../../lib/staff-format';
import { useScopedDistricts } from '../../../lib/staff-session';
import {
  defaultReportParams,
  type ReportParams,
  statusFilterLabel,
  toggleDistrict,
  toggleStatus,
  withCampaign,
} from '../utils/report-params';

interface FilterPanelProps {
  readonly params: ReportParams;
  readonly onChange: (update: ReportParamsUpdate) => void;
  /** The campaign filter's choices (issue 19). */
  readonly campaigns?: readonly Campaign[];
}

/** The campaign filter (issue 19): applies at once, as every filter of the panel. */
function CampaignFilter({ id, params, onChange, campaigns = [] }: FilterPanelProps & { id: string }) {
  const { t, i18n } = useTranslation('staff');
  return (
    <CampaignSelect
      id={id}
      label={t('reports.campaign')}
      allLabel={t('reports.allCampaigns')}
      campaigns={campaigns}
      language={i18n.language}
      value={params.campaign ?? ''}
      onChange={(campaign) => onChange((p) => withCampaign(p, campaign))}
    />
  );
}

/** From, To (dd/mm/yyyy), campaign, statuses and every district; every change applies at once (and goes to the URL). */
export function FilterPanel({ params, onChange, campaigns = [] }: FilterPanelProps) {
  const { t, i18n } = useTranslation('staff');
  const id = useId();
  const tamil = i18n.language === 'ta';
  const scoped = useScopedDistricts();
  const offered = scoped ? scoped.map((d) => d.en) : knownDistrictNames;
  // A date typed only in part, and whether its field has been left (the message waits until then).
  const [unfinished, setUnfinished] = useState({ from: false, to: false });
  const [left, setLeft] = useState({ from: false, to: false });
  const [resets, setResets] = useState(0);
  return (
    <form className="report-filters" aria-label={t('reports.filters')} onSubmit={(e) => e.preventDefault()}>
      <div className="report-filter-dates">
        {(['from', 'to'] as const).map((key) => (
          <div className="field" key={key}>
            <label className="field-label" htmlFor={`${id}-${key}`}>
              {t(`reports.${key}`)}
            </label>
            <DateInput
              // Reset empties a half-typed date too (its value may already be empty).
              key={resets}
              id={`${id}-${key}`}
              className="input"
              name={key}
              placeholder={t('filters.dateFormat')}
              value={params[key] ?? ''}
              aria-invalid={unfinished[key] && left[key]}
              aria-describedby={unfinished[key] && left[key] ? `${id}-${key}-error` : undefined}
              onFocus={() => setLeft((now) => ({ ...now, [key]: false }))}
              onBlur={() => setLeft((now) => ({ ...now, [key]: true }))}
              onValueChange={(value) => {
                // Only a whole day (or nothing) reaches the report: no request for a date half typed.
                const day = value === '' || parseDate(value) ? value || null : undefined;
                setUnfinished((now) => ({ ...now, [key]: day === undefined }));
                if (day !== undefined) onChange((p) => ({ ...p, [key]: day }));
              }}
            />
            {unfinished[key] && left[key] && (
              <p id={`${id}-${key}-error`} className="field-error" role="alert">
                {t('filters.dateInvalid')}
              </p>
            )}
          </div>
        ))}
      </div>
      <CampaignFilter id={`${id}-campaign`} params={params} onChange={onChange} campaigns={campaigns} />
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
        {/* All 38, whatever the dates: a range with no data yet must not take the choice away. */}
        <div className="report-checks report-checks-districts">
          {offered.map((district) => (
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
        {params.districts.length === 0 && (
          <p className="field-hint">{t(scoped ? 'reports.allMyDistricts' : 'reports.allDistricts')}</p>
        )}
      </fieldset>
      <div className="report-filter-actions">
        {/* Filters apply live; Apply only submits the form, which does nothing more. */}
        <button type="submit" className="button button-secondary">
          {t('reports.apply')}
        </button>
        <button
          type="button"
          className="button button-ghost"
          onClick={() => {
            setUnfinished({ from: false, to: false });
            setResets((n) => n + 1);
            onChange(defaultReportParams);
          }}
        >
          {t('reports.reset')}
        </button>
      </div>
    </form>
  );
}
