import { useTranslation } from '../../i18n/use-translation';
import { paths } from '../../paths';

export function NotFoundRoute() {
  const { t } = useTranslation();
  return (
    <article className="card card-narrow">
      <div className="card-body">
        <h1 className="page-title">{t('notFound.title')}</h1>
        <p className="page-intro">{t('notFound.body')}</p>
        <a className="button button-secondary" href={paths.home.getHref()}>
          {t('notFound.home')}
        </a>
      </div>
    </article>
  );
}
