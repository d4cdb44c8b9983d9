import { useState } from 'react';
import { errorText } from '../../../i18n/error-text';
import { useTranslation } from '../../../i18n/use-translation';
import { ApiError } from '../../../lib/api-client';
import { paths } from '../../../paths';
import { getMyCard } from '../api/get-my-card';
import type { Verification } from '../utils/flow-storage';

/**
 * "Get my card" on the already-registered screen (issue 20): a chunk of its own, loaded
 * only there. An approved member goes to their card page; anyone else hears NOT_A_MEMBER.
 */
export function GetMyCard({ verification }: { verification: Verification }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const open = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const { link } = await getMyCard(verification.token);
      // The card page is another entry of the SPA (no router on the public page): a navigation.
      window.location.assign(paths.card.getHref(link));
    } catch (error) {
      setFailure(error instanceof ApiError ? error.code : 'INTERNAL');
      setBusy(false);
    }
  };

  return (
    <>
      <button type="button" className="button button-primary" disabled={busy} onClick={() => void open()}>
        {busy ? t('myCard.getting') : t('myCard.get')}
      </button>
      {failure && (
        <p className="alert alert-error" role="alert">
          {errorText(t, failure)}
        </p>
      )}
    </>
  );
}
