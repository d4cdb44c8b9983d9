import { VerifyPage } from '../../features/member-card/components/verify-page';

/** /v#<token>: a card's verification (lazy). */
export function VerifyRoute() {
  return <VerifyPage />;
}
