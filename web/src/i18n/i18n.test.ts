import { describe, expect, it } from 'vitest';
import { districts } from '../../../rules/districts';
import { errorMessages } from '../../../rules/errors';
import { alreadyRegisteredText } from './both-languages';
import { en } from './en';
import { cardEn } from './member-card-en';
import { cardTa } from './member-card-ta';
import { meEn } from './my-application-en';
import { meTa } from './my-application-ta';
import { enForm } from './en-form';
import { grievanceEn } from './grievance-en';
import { grievanceTa } from './grievance-ta';
import { ta } from './ta';
import { taForm } from './ta-form';
import { checkGlossary, checkNoServiceText, checkTamilNames, checkTranslations } from './translation-checks';

describe('translations', () => {
  // The language switch names English in English.
  checkTranslations({ ...en, ...enForm }, { ...ta, ...taForm }, ['language.en']);
  // Google's notice must name reCAPTCHA (its badge is hidden); no other text may.
  checkNoServiceText({ ...en, ...enForm, catalogue: errorMessages }, { ...ta, ...taForm }, ['step1.captchaNotice']);
  checkGlossary({ ...ta, ...taForm });

  it('translates every error code, English being the catalogue', () => {
    expect(en.errors).toEqual(errorMessages);
    expect(Object.keys(ta.errors).sort()).toEqual(Object.keys(errorMessages).sort());
  });

  it('says "already registered" in both languages in the catalogue\'s English words', () => {
    expect(alreadyRegisteredText.en).toBe(errorMessages.ALREADY_REGISTERED);
    expect(alreadyRegisteredText.ta).toBe(ta.errors.ALREADY_REGISTERED);
  });
});

describe("the card pages' translations", () => {
  checkTranslations(cardEn, cardTa, ['card.fileName']);
  checkGlossary(cardTa);
});

describe('"My application"\'s translations', () => {
  checkTranslations(meEn, meTa);
  checkNoServiceText(meEn, meTa);
  checkGlossary(meTa);
});

describe('the grievance forms\' translations', () => {
  checkTranslations(grievanceEn, grievanceTa);
  checkNoServiceText(grievanceEn, grievanceTa);
  checkGlossary(grievanceTa);

  it('names the footer link as the forms\' title', () => {
    expect(en.legal.grievance).toBe(grievanceEn.title);
    expect(ta.legal.grievance).toBe(grievanceTa.title);
  });
});

describe('district and constituency names', () => {
  checkTamilNames(districts.flatMap((d) => [d.ta, ...d.constituencies.map((c) => c.ta)]));
});
