// @vitest-environment happy-dom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TERMS_VERSION } from '../../../rules/application-values';
import { legalEn } from '../legal/legal-en';
import { legalTa } from '../legal/legal-ta';
import { RuntimeConfigContext } from '../config';
import { checkGlossary, checkTranslations } from '../i18n/translation-checks';
import { renderWithI18n, testConfig } from '../testing/render';
import { LegalText } from './legal-text';

// The notice (issue 21): what a visitor reads before sending a number must name every item
// the DPDP Act asks of it, in both languages, with the stage's own contact and retention.

afterEach(cleanup);

const { contact, rejectedApplicationDays } = testConfig.dataNotice;

/** The words of each required item, as the visitor reads them in that language. */
const required = {
  en: {
    title: 'Data notice',
    collected: ['mobile number', 'name', 'date of birth', 'district and assembly constituency', 'stream of study'],
    retention: `a rejected application: ${rejectedApplicationDays} days after the decision, then it is erased`,
    withdrawal: 'withdraw your consent and ask us to erase your application',
    rights: ['ask to see the details', 'ask us to correct them', 'a grievance'],
    board: 'complain to the Data Protection Board of India',
    labels: ['E-mail', 'Phone'],
  },
  ta: {
    title: 'தரவு அறிவிப்பு',
    collected: ['கைபேசி எண்', 'பெயர்', 'பிறந்த தேதி', 'சட்டமன்றத் தொகுதி', 'படிப்புப் பிரிவு'],
    retention: `நிராகரிக்கப்பட்ட விண்ணப்பம்: முடிவெடுத்து ${rejectedApplicationDays} நாள்கள் கழித்து நிரந்தரமாக அழிக்கப்படும்`,
    withdrawal: 'ஒப்புதலைத் திரும்பப் பெற்று, உங்கள் விண்ணப்பத்தை நிரந்தரமாக அழிக்கக் கோரலாம்',
    rights: ['பார்க்கக் கோரலாம்', 'திருத்தக் கோரலாம்', 'குறை (புகார்) தெரிவிக்கலாம்'],
    board: 'இந்தியத் தரவுப் பாதுகாப்பு வாரியத்திடம் (Data Protection Board of India) புகார் அளிக்கலாம்',
    labels: ['மின்னஞ்சல்', 'தொடர்பு எண்'],
  },
} as const;

describe.each(['en', 'ta'] as const)('the notice, in %s', (language) => {
  const words = required[language];
  const texts = language === 'en' ? legalEn : legalTa;

  it('says what is collected and why, how long it is kept, the rights, withdrawal and the Board', async () => {
    renderWithI18n(<LegalText name="notice" level={1} />, language);
    const notice = await screen.findByTestId('legal-notice');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(words.title);
    expect(notice.textContent).toContain(TERMS_VERSION);
    for (const section of texts.notice.sections) {
      expect(within(notice).getByRole('heading', { level: 2, name: section.heading })).toBeTruthy();
    }
    const text = notice.textContent ?? '';
    for (const item of words.collected) expect(text).toContain(item);
    expect(text).toContain(words.retention);
    expect(text).not.toContain('{{days}}');
    expect(text).toContain(words.withdrawal);
    for (const right of words.rights) expect(text).toContain(right);
    expect(text).toContain(words.board);
  });

  it("names the stage's data contact from the runtime config, with e-mail and phone links", async () => {
    renderWithI18n(<LegalText name="notice" level={2} />, language);
    const address = await screen.findByTestId('data-contact');
    expect(address.textContent).toContain(contact.name);
    for (const label of words.labels) expect(address.textContent).toContain(`${label}:`);
    const email = within(address).getByRole<HTMLAnchorElement>('link', { name: contact.email });
    expect(email.getAttribute('href')).toBe(`mailto:${contact.email}`);
    const phone = within(address).getByRole<HTMLAnchorElement>('link', { name: contact.phone });
    expect(phone.getAttribute('href')).toBe('tel:+914423456789');
  });
});

describe('the notice of a stage whose contact has no phone', () => {
  it('shows the e-mail alone', async () => {
    const { phone: _phone, ...withoutPhone } = contact;
    const config = { ...testConfig, dataNotice: { ...testConfig.dataNotice, contact: withoutPhone } };
    renderWithI18n(
      <RuntimeConfigContext.Provider value={config}>
        <LegalText name="notice" level={1} />
      </RuntimeConfigContext.Provider>,
    );
    const address = await screen.findByTestId('data-contact');
    expect(
      within(address)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual([`mailto:${contact.email}`]);
    expect(address.textContent).not.toContain('Phone');
  });
});

type Tree = Parameters<typeof checkGlossary>[0];

// legal-ta.ts says what legal-en.ts says: the same sections, paragraphs and items (a text
// added in one language only fails here), the same {{days}}, in the glossary's words.
describe('the legal texts in both languages', () => {
  checkTranslations(legalEn as unknown as Tree, legalTa as unknown as Tree);
  checkGlossary(legalTa as unknown as Tree);
});
