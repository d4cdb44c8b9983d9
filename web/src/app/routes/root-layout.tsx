import { Component, type ReactNode, useEffect } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { PageShell } from '../../components/page-shell';
import { Spinner } from '../../components/spinner';

export function RootLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const title = t('shell.documentTitle');
  useEffect(() => {
    document.title = title;
  }, [title]);
  return <PageShell>{children}</PageShell>;
}

/** While a lazy route's code loads on first visit (e.g. opening /admin directly). */
export function RootFallback() {
  const { t } = useTranslation();
  return <Spinner label={t('shell.loading')} />;
}

/** A route that throws, or a chunk that no longer exists after a deploy. */
export function RootError() {
  const { t } = useTranslation();
  return (
    <PageShell>
      <div className="card card-narrow">
        <div className="card-body">
          <div className="alert alert-error" role="alert">
            {t('errors.INTERNAL')}
          </div>
        </div>
      </div>
    </PageShell>
  );
}

/** Shows RootError instead of a blank page when a component throws while rendering. */
export class RootErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render(): ReactNode {
    return this.state.failed ? <RootError /> : this.props.children;
  }
}
