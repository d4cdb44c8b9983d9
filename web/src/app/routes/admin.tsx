import { useTranslation } from 'react-i18next';
import { SignInForm } from '../../features/staff-auth/components/sign-in-form';

// Lazy chunk: nothing of the staff area loads on the public page.
export function AdminRoute() {
  const { t } = useTranslation();
  return (
    <article className="card card-narrow">
      <div className="card-body">
        <h1 className="page-title">{t('admin.title')}</h1>
        <p className="page-intro">{t('admin.intro')}</p>
        <SignInForm />
      </div>
    </article>
  );
}
