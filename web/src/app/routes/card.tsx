import { CardPage } from '../../features/member-card/components/card-page';

/** /card#<link>: the member's card (lazy). */
export function CardRoute() {
  return <CardPage />;
}
