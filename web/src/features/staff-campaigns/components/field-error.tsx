import { useTranslation } from '../../../i18n/use-translation';

export type CampaignField = 'name_en' | 'name_ta' | 'kind' | 'district' | 'constituency' | 'starts_on' | 'ends_on';

/** A field's error line, by the server's (or the shared schema's) code for it. */
export function FieldError({ id, field, code }: { id: string; field: CampaignField; code?: string }) {
  const { t } = useTranslation('staff');
  if (!code) return null;
  return (
    <p id={id} className="field-error" role="alert">
      {t(`campaigns.fieldErrors.${field}.${code}` as never, { defaultValue: t('campaigns.createFailed') })}
    </p>
  );
}
