import { useCallback, useEffect, useState } from 'react';
import { type CardView, parseCardLink, verifyPageHref } from '../../../../../rules/member-card';
import { ApiError } from '../../../lib/api-client';
import { type QrMatrix, qrMatrix } from '../../../lib/qr';
import { getCard } from '../api/get-card';

export type CardState =
  | { readonly state: 'loading' }
  | { readonly state: 'ready'; readonly card: CardView; readonly verifyUrl: string; readonly matrix: QrMatrix }
  /** A wrong, replaced or revoked link (or no link at all): CARD_NOT_FOUND. */
  | { readonly state: 'not-found' }
  | { readonly state: 'failed'; readonly code: string };

/** What follows `#` in the address: the link's secret part (never sent in an address). */
const linkFromHash = () => decodeURIComponent(window.location.hash.replace(/^#/, ''));

/** The card of the link in the address, with its verification URL's QR matrix; `retry` asks again. */
export function useCard(): { card: CardState; retry: () => void } {
  const [link, setLink] = useState(linkFromHash);
  const [attempt, setAttempt] = useState(0);
  // Each answer is kept with the request it answers: a new link or a retry reads as 'loading' at once.
  const [answer, setAnswer] = useState<{ key: string; card: CardState }>();
  const key = `${attempt}:${link}`;

  useEffect(() => {
    const onHash = () => setLink(linkFromHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  useEffect(() => {
    // A malformed link is not worth a request: the same answer as a wrong one (below).
    if (!parseCardLink(link)) return;
    const controller = new AbortController();
    (async () => {
      const view = await getCard(link, controller.signal);
      const verifyUrl = `${window.location.origin}${verifyPageHref(view.token)}`;
      return { view, verifyUrl, matrix: await qrMatrix(verifyUrl) };
    })().then(
      ({ view, verifyUrl, matrix }) => setAnswer({ key, card: { state: 'ready', card: view, verifyUrl, matrix } }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const code = error instanceof ApiError ? error.code : 'INTERNAL';
        const notFound = code === 'CARD_NOT_FOUND' || code === 'NOT_FOUND';
        setAnswer({ key, card: notFound ? { state: 'not-found' } : { state: 'failed', code } });
      },
    );
    return () => controller.abort();
  }, [link, key]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const card: CardState = !parseCardLink(link)
    ? { state: 'not-found' }
    : answer?.key === key
      ? answer.card
      : { state: 'loading' };
  return { card, retry };
}
