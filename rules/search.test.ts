import { describe, expect, it } from 'vitest';
import { normalizeSearchQuery } from './search';

describe('search query normalisation', () => {
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
      expect(normalizeSearchQuery(query), query).toBe('8684613282');
    }
  });

  it('keeps part of a number a part, whatever its prefix', () => {
    expect(normalizeSearchQuery('86846 132')).toBe('86846132');
    expect(normalizeSearchQuery('+91 86846')).toBe('86846');
    expect(normalizeSearchQuery('0 86846')).toBe('86846');
    expect(normalizeSearchQuery('13282')).toBe('13282');
    // A plain run of digits is searched as typed: a 0 inside a number is no trunk prefix.
    expect(normalizeSearchQuery('0132')).toBe('0132');
  });

  it('lower-cases names and emails and leaves their other characters alone', () => {
    expect(normalizeSearchQuery('  Kavya ')).toBe('kavya');
    expect(normalizeSearchQuery('KAVYA.R@Example.com')).toBe('kavya.r@example.com');
    expect(normalizeSearchQuery('Arun 2')).toBe('arun 2');
    expect(normalizeSearchQuery('கவியா')).toBe('கவியா');
    expect(normalizeSearchQuery('+')).toBe('+');
  });
});
