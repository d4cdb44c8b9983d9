import { useEffect, useState } from 'react';
import type { GrievanceAnswerView } from '../../../../../rules/grievances';
import { Spinner } from '../../../components/spinner';
import { errorText } from '../../../i18n/error-text';
import { useTranslation } from '../../../i18n/use-translation';
import { ApiError } from '../../../lib/api-client';
import { paths } from '../../../paths';
import { getGrievanceAnswer } from '../api/grievances';
import { formatGrievanceDay } from './grievance-parts';

type State = { kind: 'loading' } | { kind: 'failed'; code: string } | { kind: 'shown'; answer: GrievanceAnswerView };

/**
 * /grievance#<id>.<mac>: the answer an SMS could not carry (a DLT variable holds 30
 * characters). The link's secret part goes in a body, never in a URL; the page shows the
 * reference and the answer, not the grievance's own text.
 */
export function GrievanceAnswer({ link }: { link: string }) {
  const { t, i18n } = useTranslation();
  const { t: g } = useTranslation('grievance');
  const [state, setState] = useState<State>({ kind: 'loading' });
  useEffect(() => {
    const abort = new AbortController();
    getGrievanceAnswer(link, abort.signal).then(
      (answer) => setState({ kind: 'shown', answer }),
      (error: unknown) => {
        if (!abort.signal.aborted)
          setState({ kind: 'failed', code: error instanceof ApiError ? error.code : 'INTERNAL' });
      },
    );
    return () => abort.abort();
  }, [link]);

  if (state.kind === 'loading') return <Spinner label={g('answer.loading')} />;
  return (
    <div className="step">
      <h1 className="page-title">{g('answer.title')}</h1>
      {state.kind === 'failed' ? (
        <p className="alert alert-error" role="alert">
          {state.code === 'NOT_FOUND' ? g('answer.notFound') : errorText(t, state.code)}
        </p>
      ) : (
        <>
          <dl className="grievance-facts">
            <div>
              <dt>{g('reference')}</dt>
              <dd data-testid="grievance-reference">{state.answer.reference}</dd>
            </div>
            <div>
              <dt>{g('answer.answeredOn')}</dt>
              <dd>{formatGrievanceDay(state.answer.answeredAt, i18n.language)}</dd>
            </div>
          </dl>
          <p className="grievance-answer-text" data-testid="grievance-answer">
            {state.answer.answer}
          </p>
        </>
      )}
      <a className="button button-secondary" href={paths.home.getHref()}>
        {g('home')}
      </a>
    </div>
  );
}
