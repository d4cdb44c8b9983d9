import type { TFunction } from 'i18next';
import type { CardView } from '../../../../../rules/member-card';
import type { QrMatrix } from '../../../lib/qr';
import type { CardFace } from './card-image';
import { constituencyWithDistrict, districtName, formatCardDay } from './card-text';

/** The card's lines in the page's language: the same on the screen and in the files. */
export function cardFields(card: CardView, t: TFunction<'card'>, language: string) {
  const constituency = constituencyWithDistrict(card.district, card.constituency, language);
  return [
    { label: t('card.memberNumber'), value: card.memberNumber },
    { label: t('card.district'), value: districtName(card.district, language) || t('verify.notGiven') },
    ...(constituency ? [{ label: t('card.constituency'), value: constituency }] : []),
    { label: t('card.memberSince'), value: formatCardDay(card.memberSince, language) },
  ];
}

export function cardFace(card: CardView, matrix: QrMatrix, t: TFunction<'card'>, language: string): CardFace {
  return { wing: t('wing'), title: t('card.title'), name: card.name, fields: cardFields(card, t, language), matrix };
}
