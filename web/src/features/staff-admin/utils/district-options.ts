import { districts } from '../../../../../rules/districts';

/** The 38 districts by id, named and sorted in the page's language (Tamil order on a Tamil page). */
export function districtOptions(language: string): { id: string; name: string }[] {
  const tamil = language === 'ta';
  const collator = new Intl.Collator(tamil ? 'ta' : 'en');
  return districts
    .map((d) => ({ id: d.id, name: tamil ? d.ta : d.en }))
    .sort((a, b) => collator.compare(a.name, b.name));
}

/** District ids as one line of names in the page's language. */
export function districtNames(ids: readonly string[], language: string): string {
  const tamil = language === 'ta';
  return districts
    .filter((d) => ids.includes(d.id))
    .map((d) => (tamil ? d.ta : d.en))
    .join(', ');
}
