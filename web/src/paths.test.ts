import { describe, expect, it } from 'vitest';
import { cardPageHref, CARD_PAGE_PATH, verifyPageHref, VERIFY_PAGE_PATH } from '../../rules/member-card';
import { paths } from './paths';

describe('the card paths', () => {
  it('are the contract’s (written out in paths.ts to keep its schemas out of the first view)', () => {
    expect(paths.card.path).toBe(CARD_PAGE_PATH);
    expect(paths.verify.path).toBe(VERIFY_PAGE_PATH);
    expect(paths.card.getHref('abc.def')).toBe(cardPageHref('abc.def'));
    expect(paths.verify.getHref('x.y')).toBe(verifyPageHref('x.y'));
  });
});
