import type { Campaign } from '../../../rules/campaigns';

/**
 * A campaign filter (issue 19): "All campaigns" (value '') then each campaign by its name
 * in the screen's language. A campaign chosen that the list does not hold (a shared link,
 * a list that could not be read) stays offered under its id.
 */
export function CampaignSelect({
  id,
  label,
  allLabel,
  campaigns,
  language,
  value,
  onChange,
  disabled,
}: {
  id: string;
  label: string;
  allLabel: string;
  campaigns: readonly Campaign[];
  language: string;
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
}) {
  const known = value === '' || campaigns.some((c) => c.id === value);
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="input select"
        name="campaign"
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="">{allLabel}</option>
        {!known && <option value={value}>{value}</option>}
        {campaigns.map((c) => (
          <option key={c.id} value={c.id}>
            {language === 'ta' ? c.name_ta : c.name_en}
          </option>
        ))}
      </select>
    </div>
  );
}
