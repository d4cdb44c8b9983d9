import { describe, expect, it } from 'vitest';
import { errorMessages } from '../../../rules/errors';
import { en } from './en';
import { enForm } from './en-form';
import { ta } from './ta';
import { taForm } from './ta-form';
import { checkTranslations } from './translation-checks';

describe('translations', () => {
  // The language switch names English in English.
  checkTranslations({ ...en, ...enForm }, { ...ta, ...taForm }, ['language.en']);

  it('translates every error code, English being the catalogue', () => {
    expect(en.errors).toEqual(errorMessages);
    expect(Object.keys(ta.errors).sort()).toEqual(Object.keys(errorMessages).sort());
  });
});
