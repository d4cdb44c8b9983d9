import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { type Campaign, campaignKinds, type CampaignKind } from '../../../../../rules/campaigns';
import { districts } from '../../../../../rules/districts';
import { DateInput } from '../../../components/date-input';
import { useTranslation } from '../../../i18n/use-translation';
import { useScopedDistricts, useStaffSession } from '../../../lib/staff-session';
import { useCreateCampaign } from '../hooks/use-campaigns';
import { type CampaignDraft, checkDraft, constituencyOptions, emptyDraft } from '../utils/campaign-state';
import { type CampaignField, FieldError } from './field-error';

/** One labelled field with its error line; `control` gets the ids it must carry. */
function Field({
  field,
  label,
  hint,
  code,
  control,
}: {
  field: CampaignField;
  label: string;
  hint?: string;
  code?: string;
  control: (props: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', code ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label className="field-label" htmlFor={`${id}-input`}>
        {label}
      </label>
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
      {control({
        id: `${id}-input`,
        'aria-invalid': code ? true : undefined,
        'aria-describedby': described || undefined,
      })}
      <FieldError id={`${id}-error`} field={field} code={code} />
    </div>
  );
}

type FieldsProps = {
  draft: CampaignDraft;
  set: (patch: Partial<CampaignDraft>) => void;
  shown: Record<string, string | undefined>;
};

/** District and constituency, by their English names as stored; a coordinator's own districts only. */
function PlaceFields({ draft, set, shown }: FieldsProps) {
  const { t, i18n } = useTranslation('staff');
  const { role } = useStaffSession();
  const scoped = useScopedDistricts();
  const tamil = i18n.language === 'ta';
  const districtChoices = (scoped ?? districts)
    .map((d) => ({ value: d.en, name: tamil ? d.ta : d.en }))
    .sort((a, b) => a.name.localeCompare(b.name, tamil ? 'ta' : 'en'));
  const optional = (label: string) => `${label} (${t('campaigns.optional')})`;
  return (
    <>
      <Field
        field="district"
        label={role === 'coordinator' ? t('campaigns.district') : optional(t('campaigns.district'))}
        code={shown.district}
        control={(p) => (
          <select
            {...p}
            className="input select"
            value={draft.district}
            onChange={(e) => set({ district: e.target.value, constituency: '' })}
          >
            <option value="">{role === 'coordinator' ? '—' : t('campaigns.anyDistrict')}</option>
            {districtChoices.map((d) => (
              <option key={d.value} value={d.value}>
                {d.name}
              </option>
            ))}
          </select>
        )}
      />
      <Field
        field="constituency"
        label={optional(t('campaigns.constituency'))}
        code={shown.constituency}
        control={(p) => (
          <select
            {...p}
            className="input select"
            value={draft.constituency}
            disabled={!draft.district}
            onChange={(e) => set({ constituency: e.target.value })}
          >
            <option value="">{t('campaigns.anyConstituency')}</option>
            {constituencyOptions(draft.district, i18n.language).map((c) => (
              <option key={c.value} value={c.value}>
                {c.name}
              </option>
            ))}
          </select>
        )}
      />
    </>
  );
}

/** The form's fields: names, kind, place (a coordinator's own districts only) and dates. */
function CampaignFields({ draft, set, shown }: FieldsProps) {
  const { t } = useTranslation('staff');
  return (
    <div className="campaign-form-grid">
      <Field
        field="name_en"
        label={t('campaigns.nameEn')}
        code={shown.name_en}
        control={(p) => (
          <input
            {...p}
            className="input"
            lang="en"
            value={draft.name_en}
            maxLength={80}
            onChange={(e) => set({ name_en: e.target.value })}
          />
        )}
      />
      <Field
        field="name_ta"
        label={t('campaigns.nameTa')}
        code={shown.name_ta}
        control={(p) => (
          <input
            {...p}
            className="input"
            lang="ta"
            value={draft.name_ta}
            maxLength={80}
            onChange={(e) => set({ name_ta: e.target.value })}
          />
        )}
      />
      <Field
        field="kind"
        label={t('campaigns.kind')}
        code={shown.kind}
        control={(p) => (
          <select
            {...p}
            className="input select"
            value={draft.kind}
            onChange={(e) => set({ kind: e.target.value as CampaignKind | '' })}
          >
            <option value="">{t('campaigns.chooseKind')}</option>
            {campaignKinds.map((kind) => (
              <option key={kind} value={kind}>
                {t(`campaigns.kinds.${kind}`)}
              </option>
            ))}
          </select>
        )}
      />
      <PlaceFields draft={draft} set={set} shown={shown} />
      <Field
        field="starts_on"
        label={t('campaigns.startsOn')}
        hint={t('campaigns.dateHint')}
        code={shown.starts_on}
        control={(p) => (
          <DateInput {...p} className="input" value={draft.starts_on} onValueChange={(v) => set({ starts_on: v })} />
        )}
      />
      <Field
        field="ends_on"
        label={t('campaigns.endsOn')}
        hint={t('campaigns.dateHint')}
        code={shown.ends_on}
        control={(p) => (
          <DateInput {...p} className="input" value={draft.ends_on} onValueChange={(v) => set({ ends_on: v })} />
        )}
      />
    </div>
  );
}

/**
 * A new campaign: names in both languages, kind, an optional district and constituency
 * (a coordinator's own districts only, and one is needed), first and last day. Checked
 * with the server's schema before it is sent; the server's field codes show the same way.
 */
export function CampaignForm({ onCreated }: { onCreated: (campaign: Campaign) => void }) {
  const { t } = useTranslation('staff');
  const id = useId();
  const { role } = useStaffSession();
  const create = useCreateCampaign();
  const [draft, setDraft] = useState<CampaignDraft>(emptyDraft);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const shown: Record<string, string | undefined> = { ...(create.failure?.fields ?? {}), ...errors };
  const set = (patch: Partial<CampaignDraft>) => setDraft((current) => ({ ...current, ...patch }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkDraft(draft, role === 'coordinator');
    if ('errors' in checked) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    create.mutate(checked.input, {
      onSuccess: (campaign) => {
        setDraft(emptyDraft);
        onCreated(campaign);
      },
    });
  };

  return (
    <form className="card campaign-form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <div className="card-body">
        <h2 id={`${id}-title`} className="staff-section-title">
          {t('campaigns.createTitle')}
        </h2>
        <CampaignFields draft={draft} set={set} shown={shown} />
        {create.failure && Object.keys(create.failure.fields).length === 0 && (
          <p className="alert alert-error" role="alert">
            {create.failure.code === 'FORBIDDEN' ? t('campaigns.forbidden') : t('campaigns.createFailed')}
          </p>
        )}
        <button type="submit" className="button button-primary" disabled={create.isPending}>
          {create.isPending ? t('campaigns.creating') : t('campaigns.create')}
        </button>
      </div>
    </form>
  );
}
