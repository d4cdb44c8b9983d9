import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { applicationStatuses } from '../../../../../rules/application-values';
import { districts } from '../../../../../rules/districts';
import { parseDate } from '../../../../../rules/ist';
import { parseSearchQuery } from '../../../../../rules/search';
import { CampaignSelect } from '../../../components/campaign-select';
import { DateInput } from '../../../components/date-input';
import { useScopedDistricts } from '../../../lib/staff-session';
import type { Campaign } from '../../../../../rules/campaigns';
import { cleanFilters, type ListFilters } from '../utils/list-params';

interface Draft {
  q: string;
  status: string;
  district: string;
  from: string;
  to: string;
  campaign: string;
}

const toDraft = (filters: ListFilters): Draft => ({
  q: filters.q ?? '',
  status: filters.status ?? '',
  district: filters.district ?? '',
  from: filters.from ?? '',
  to: filters.to ?? '',
  campaign: filters.campaign ?? '',
});

/** What Apply found wrong: a search the index cannot answer, a date that names no day, or From after To. */
interface Problem {
  readonly field: 'q' | 'from' | 'to' | 'campaign';
  readonly message: 'searchTooShort' | 'dateInvalid' | 'rangeInvalid' | 'campaignNotWithSearch';
}

/** The first thing wrong with the draft, or null: Apply sends nothing while there is one. */
function findProblem(draft: Draft): Problem | null {
  // The server would refuse it (400, fields.q TOO_SHORT): say why here instead of asking.
  if (draft.q.trim() && parseSearchQuery(draft.q) === 'TOO_SHORT') return { field: 'q', message: 'searchTooShort' };
  const notADay = (['from', 'to'] as const).find((key) => draft[key] && !parseDate(draft[key]));
  if (notADay) return { field: notADay, message: 'dateInvalid' };
  if (draft.from && draft.to && draft.from > draft.to) return { field: 'to', message: 'rangeInvalid' };
  // The search index knows no campaign (rules/staff-api.ts refuses the pair: NOT_WITH_SEARCH).
  if (draft.q.trim() && draft.campaign) return { field: 'campaign', message: 'campaignNotWithSearch' };
  return null;
}

interface FiltersFormProps {
  readonly filters: ListFilters;
  readonly onApply: (filters: ListFilters) => void;
  /** The campaign filter's choices (issue 19): their names, from GET /api/admin/campaigns. */
  readonly campaigns?: readonly Campaign[];
}

/**
 * Search (with what it finds said under the box), status, district (all 38, in the
 * screen's language; the values are the English names the API knows), From and To days
 * (IST), campaign, Apply and Reset. The draft is local until Apply; the parent remounts the form
 * when the address bar changes.
 */
export function FiltersForm({ filters, onApply, campaigns = [] }: FiltersFormProps) {
  const { t, i18n } = useTranslation('staff');
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() => toDraft(filters));
  const [problem, setProblem] = useState<Problem | null>(null);
  const tamil = i18n.resolvedLanguage === 'ta';
  const scoped = useScopedDistricts();
  const set = (key: keyof Draft) => (event: { target: { value: string } }) =>
    setDraft((now) => ({ ...now, [key]: event.target.value }));
  const setDay = (key: 'from' | 'to') => (value: string) => setDraft((now) => ({ ...now, [key]: value }));

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = findProblem(draft);
    setProblem(found);
    if (!found) onApply(cleanFilters(draft));
  };

  const reset = () => {
    setDraft(toDraft({}));
    setProblem(null);
    onApply({});
  };

  const field = (key: keyof Draft) => `${id}-${key}`;
  const problemId = `${id}-problem`;

  return (
    <form className="filters" role="search" aria-label={t('filters.label')} onSubmit={onSubmit} noValidate>
      <SearchField
        id={field('q')}
        label={t('filters.search')}
        placeholder={t('filters.searchPlaceholder')}
        hint={t('filters.searchHint')}
        value={draft.q}
        onChange={set('q')}
        {...(problem?.field === 'q' && { problemId })}
      />
      <div className="field">
        <label className="field-label" htmlFor={field('status')}>
          {t('filters.status')}
        </label>
        <select
          id={field('status')}
          className="input select"
          name="status"
          value={draft.status}
          onChange={set('status')}
        >
          <option value="">{t('filters.allStatuses')}</option>
          {applicationStatuses.map((status) => (
            <option key={status} value={status}>
              {t(`status.${status}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={field('district')}>
          {t('filters.district')}
        </label>
        <select
          id={field('district')}
          className="input select"
          name="district"
          value={draft.district}
          onChange={set('district')}
        >
          <option value="">{t(scoped ? 'filters.allMyDistricts' : 'filters.allDistricts')}</option>
          {(scoped ?? districts).map((d) => (
            <option key={d.id} value={d.en}>
              {tamil ? d.ta : d.en}
            </option>
          ))}
        </select>
      </div>
      <CampaignSelect
        id={field('campaign')}
        label={t('filters.campaign')}
        allLabel={t('filters.allCampaigns')}
        campaigns={campaigns}
        language={i18n.resolvedLanguage ?? i18n.language}
        value={draft.campaign}
        onChange={(campaign) => setDraft((now) => ({ ...now, campaign }))}
      />
      {(['from', 'to'] as const).map((key) => (
        <DayField
          key={key}
          id={field(key)}
          name={key}
          label={t(`filters.${key}`)}
          placeholder={t('filters.dateFormat')}
          value={draft[key]}
          onValueChange={setDay(key)}
          {...(problem?.field === key && { problemId })}
        />
      ))}
      <div className="filters-actions">
        <button type="submit" className="button button-primary">
          {t('filters.apply')}
        </button>
        <button type="button" className="button button-secondary" onClick={reset}>
          {t('filters.reset')}
        </button>
      </div>
      {problem && (
        <p id={problemId} className="field-error filters-error" role="alert">
          {t(`filters.${problem.message}`)}
        </p>
      )}
    </form>
  );
}

/**
 * The search box and, always in view under it, what a search finds: the start of a
 * name's words, a number by its last digits, a whole email (rules/search.ts). Typing
 * the middle of a word finds nothing, so the box says so before anyone tries.
 */
function SearchField({
  id,
  label,
  placeholder,
  hint,
  value,
  onChange,
  problemId,
}: {
  id: string;
  label: string;
  placeholder: string;
  hint: string;
  value: string;
  onChange: (event: { target: { value: string } }) => void;
  problemId?: string;
}) {
  const hintId = `${id}-hint`;
  return (
    <div className="field filters-search">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="input"
        type="search"
        name="q"
        maxLength={100}
        placeholder={placeholder}
        aria-invalid={problemId !== undefined}
        aria-describedby={problemId ? `${hintId} ${problemId}` : hintId}
        value={value}
        onChange={onChange}
      />
      <p id={hintId} className="field-hint filters-hint">
        {hint}
      </p>
    </div>
  );
}

/** From or To: a day typed as dd/mm/yyyy; `problemId` names the message when Apply found it wrong. */
function DayField({
  id,
  name,
  label,
  placeholder,
  value,
  onValueChange,
  problemId,
}: {
  id: string;
  name: string;
  label: string;
  placeholder: string;
  value: string;
  onValueChange: (value: string) => void;
  problemId?: string;
}) {
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <DateInput
        id={id}
        className="input"
        name={name}
        placeholder={placeholder}
        value={value}
        aria-invalid={problemId !== undefined}
        aria-describedby={problemId}
        onValueChange={onValueChange}
      />
    </div>
  );
}
