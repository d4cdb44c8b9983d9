import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { applicationFieldsSchema } from './application';
import { sampleApplication } from '../test/support/public-flow';
import { textProblem } from './text';

const base = sampleApplication();
const fieldCode = (field: 'name' | 'motivation', value: string) =>
  v.safeParse(applicationFieldsSchema, { ...base, [field]: value }).issues?.find((i) => i.path?.[0]?.key === field)
    ?.message;

describe('free text', () => {
  it.each([
    ['NUL', 'Kavya\u0000Raman'],
    ['a C0 control', 'Kavya\u001bRaman'],
    ['DEL', 'Kavya\u007f'],
    ['a C1 control', 'Kavya\u0085Raman'],
    ['a right-to-left override', 'Kavya \u202enamaR'],
    ['a left-to-right isolate', '\u2066Kavya\u2069'],
    ['a lone high surrogate', 'Kavya \ud83d'],
    ['a lone low surrogate', '\ude00 Kavya'],
  ])('refuses %s in a name and in the motivation', (_what, value) => {
    expect(fieldCode('name', value)).toBe('INVALID_CHARACTERS');
    expect(fieldCode('motivation', value)).toBe('INVALID_CHARACTERS');
  });

  it('keeps Tamil (with its joiners), emoji and, in the motivation only, line breaks', () => {
    expect(fieldCode('name', 'கவ்யா ராமன்')).toBeUndefined();
    expect(textProblem('க\u200dஷ \u200c 🙂')).toBeUndefined();
    expect(fieldCode('motivation', 'First line.\r\nSecond\tline.')).toBeUndefined();
    expect(fieldCode('name', 'Kavya\nRaman')).toBe('INVALID_CHARACTERS');
  });
});
