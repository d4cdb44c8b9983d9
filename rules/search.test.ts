import { describe, expect, it } from 'vitest';
import { foldText, matchesSearch, nameWords, parseSearchQuery, phoneDigits } from './search';

describe('search query', () => {
  it('turns a phone number written any usual way into its national digits', () => {
    for (const query of [
      '8684613282',
      '86846 13282',
      ' 86846  13282 ',
      '+91 86846 13282',
      '+918684613282',
      '+91-86846-13282',
      '918684613282',
      '91 86846 13282',
      '08684613282',
      '0 86846 13282',
      '086846-13282',
      '0091 86846 13282',
      '+91 (0) 86846 13282',
      '(+91) 86846.13282',
    ]) {
      expect(phoneDigits(query), query).toBe('8684613282');
      expect(parseSearchQuery(query), query).toEqual({ kind: 'phone', digits: '8684613282' });
    }
  });

  it('keeps the end of a number as typed, and wants 4 digits at least', () => {
    expect(parseSearchQuery('43210')).toEqual({ kind: 'phone', digits: '43210' });
    expect(parseSearchQuery('132 82')).toEqual({ kind: 'phone', digits: '13282' });
    expect(parseSearchQuery('0132')).toEqual({ kind: 'phone', digits: '0132' });
    expect(parseSearchQuery('0007')).toEqual({ kind: 'phone', digits: '0007' });
    expect(parseSearchQuery('132')).toBe('TOO_SHORT');
    expect(parseSearchQuery('+')).toBe('TOO_SHORT');
  });

  it('reads an address as a whole email, in lower case', () => {
    expect(parseSearchQuery(' KAVYA.R@Example.com ')).toEqual({ kind: 'email', email: 'kavya.r@example.com' });
  });

  it('reads anything else as word prefixes, folded', () => {
    expect(parseSearchQuery('  Kavya  R. ')).toEqual({ kind: 'name', words: ['kavya', 'r'] });
    expect(parseSearchQuery('Ángel')).toEqual({ kind: 'name', words: ['angel'] });
    expect(parseSearchQuery('கவி')).toEqual({ kind: 'name', words: ['கவி'] });
    expect(parseSearchQuery('--')).toBe('TOO_SHORT');
  });
});

describe('folding', () => {
  it('drops Latin accents and zero-width characters, keeps Tamil vowel signs', () => {
    expect(foldText('Sélvî')).toBe('selvi');
    expect(foldText('கொ\u200cடி')).toBe('கொடி'.normalize('NFD'));
    // ொ typed as one character or as its two parts compares equal.
    expect(foldText('\u0b95\u0bca')).toBe(foldText('\u0b95\u0bc6\u0bbe'));
  });

  it('splits a name into its distinct words', () => {
    expect(nameWords('Raja  Raja-Cholan')).toEqual(['raja', 'cholan']);
    expect(nameWords('முத்து குமார்')).toEqual(['முத்து', 'குமார்'].map((w) => w.normalize('NFD')));
  });
});

describe('the rule', () => {
  const kavya = { name: 'Kavya Rajendran', phone_number: '919876543210', email: 'Kavya@Example.org' };
  const tamil = { name: 'கவியா ராஜேந்திரன்', phone_number: '918684613282' };

  it('matches a number by its end only', () => {
    expect(matchesSearch({ kind: 'phone', digits: '43210' }, kavya)).toBe(true);
    expect(matchesSearch({ kind: 'phone', digits: '9876543210' }, kavya)).toBe(true);
    expect(matchesSearch({ kind: 'phone', digits: '98765' }, kavya)).toBe(false);
  });

  it('matches an email whole, in any case', () => {
    expect(matchesSearch({ kind: 'email', email: 'kavya@example.org' }, kavya)).toBe(true);
    expect(matchesSearch({ kind: 'email', email: 'kavya@example' }, kavya)).toBe(false);
    expect(matchesSearch({ kind: 'email', email: 'kavya@example.org' }, tamil)).toBe(false);
  });

  it('matches every word of the query to the start of a word of the name, in either script', () => {
    const q = (text: string) => parseSearchQuery(text) as Exclude<ReturnType<typeof parseSearchQuery>, string>;
    expect(matchesSearch(q('raj kav'), kavya)).toBe(true);
    expect(matchesSearch(q('endran'), kavya)).toBe(false);
    expect(matchesSearch(q('கவி'), tamil)).toBe(true);
    expect(matchesSearch(q('ராஜே கவியா'), tamil)).toBe(true);
    expect(matchesSearch(q('யா'), tamil)).toBe(false);
    expect(matchesSearch(q('kavi'), tamil)).toBe(false);
  });
});
