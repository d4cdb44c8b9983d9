import { describe, expect, it } from 'vitest';
import { parseDisplayDate, toDisplayDate, withSlashes } from './display-date';

describe('dates shown and typed day first', () => {
  it('shows a stored day as dd/mm/yyyy and leaves anything else as typed', () => {
    expect(toDisplayDate('2001-01-15')).toBe('15/01/2001');
    expect(toDisplayDate('')).toBe('');
    expect(toDisplayDate('15/01/20')).toBe('15/01/20');
    expect(toDisplayDate('2001-02-30')).toBe('2001-02-30');
  });

  it('reads day, month, year whatever the separator, and a pasted ISO day', () => {
    for (const typed of [
      '15/01/2001',
      '15-01-2001',
      '15.01.2001',
      '15 01 2001',
      ' 15/1/2001 ',
      '15012001',
      '2001-01-15',
    ]) {
      expect(parseDisplayDate(typed), typed).toBe('2001-01-15');
    }
    expect(parseDisplayDate('5/1/2001')).toBe('2001-01-05');
    expect(parseDisplayDate('')).toBe('');
    expect(parseDisplayDate('  ')).toBe('');
  });

  it('refuses what names no day: month first, a day past the month, part of a date', () => {
    for (const typed of [
      '01/15/2001',
      '30/02/2001',
      '31/04/2026',
      '15/01/20',
      '15/01',
      'tomorrow',
      '2001-13-01',
      '00/01/2001',
    ]) {
      expect(parseDisplayDate(typed), typed).toBeUndefined();
    }
    expect(parseDisplayDate('29/02/2024')).toBe('2024-02-29');
    expect(parseDisplayDate('29/02/2025')).toBeUndefined();
  });

  it('puts the slashes in while digits are typed, and keeps the typist’s own', () => {
    const typed: string[] = [];
    let text = '';
    for (const key of '15012001') typed.push((text = withSlashes(text + key)));
    expect(typed).toEqual(['1', '15', '15/0', '15/01', '15/01/2', '15/01/20', '15/01/200', '15/01/2001']);
    expect(withSlashes('15/01/')).toBe('15/01');
    expect(withSlashes('5/1/2001')).toBe('5/1/2001');
    expect(withSlashes('15-01-2001')).toBe('15-01-2001');
    expect(withSlashes('15/01/20019')).toBe('15/01/2001');
  });
});
