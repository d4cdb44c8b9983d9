// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { en } from './en';
import { enForm } from './en-form';
import { createI18n } from './i18n';
import { addStaffTranslations } from './staff';
import { staffEn } from './staff-en';
import { ta } from './ta';
import { taForm } from './ta-form';
import { I18nextProvider, useTranslation } from './use-translation';

afterEach(cleanup);

function Heading() {
  const { t } = useTranslation();
  return <h1>{t('landing.title')}</h1>;
}

function Submit() {
  const { t } = useTranslation();
  return <button type="button">{t('form.submit')}</button>;
}

function SignOut() {
  const { t } = useTranslation('staff');
  return <h2>{t('login.title')}</h2>;
}

describe('useTranslation', () => {
  it('re-renders every reader in the new language at once', async () => {
    const i18n = createI18n('en', { en, ta });
    render(
      <I18nextProvider i18n={i18n}>
        <Heading />
        <Heading />
      </I18nextProvider>,
    );
    expect(screen.getAllByRole('heading').map((h) => h.textContent)).toEqual([en.landing.title, en.landing.title]);
    await act(() => i18n.changeLanguage('ta'));
    expect(screen.getAllByRole('heading').map((h) => h.textContent)).toEqual([ta.landing.title, ta.landing.title]);
  });

  it('re-renders when strings arrive after the first render (a later chunk)', () => {
    const i18n = createI18n('ta', { ta });
    render(
      <I18nextProvider i18n={i18n}>
        <Submit />
      </I18nextProvider>,
    );
    act(() => {
      i18n.addResourceBundle('ta', 'translation', taForm, true, false);
    });
    expect(screen.getByRole('button').textContent).toBe(taForm.form.submit);
  });

  it('reads a namespace of its own', () => {
    const i18n = createI18n('en', { en: { ...en, ...enForm } });
    addStaffTranslations(i18n);
    render(
      <I18nextProvider i18n={i18n}>
        <SignOut />
      </I18nextProvider>,
    );
    expect(screen.getByRole('heading').textContent).toBe(staffEn.login.title);
  });
});
