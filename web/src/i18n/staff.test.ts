import { describe, expect, it } from 'vitest';
import { staffEn } from './staff-en';
import { staffTa } from './staff-ta';

type Tree = { readonly [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of leaves(value, path)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('staff area translations', () => {
  const english = leaves(staffEn);
  const tamil = leaves(staffTa);

  it('has a non-empty Tamil text for every English key, and no others', () => {
    for (const [key, text] of english) {
      expect(text.trim(), `en ${key}`).not.toBe('');
      expect(tamil.get(key)?.trim(), `ta ${key}`).toBeTruthy();
    }
    expect([...tamil.keys()].sort()).toEqual([...english.keys()].sort());
  });

  it('keeps the same interpolation placeholders in both languages', () => {
    for (const [key, text] of english) expect(placeholders(tamil.get(key) ?? ''), key).toEqual(placeholders(text));
  });

  it('writes the Tamil texts in Tamil script', () => {
    const tamilScript = /[\u0B80-\u0BFF]/;
    for (const [key, text] of tamil) expect(text, key).toMatch(tamilScript);
  });

  it('keeps the spec texts of the dashboard and the login', () => {
    expect(staffEn.login.login).toBe('Login');
    expect(staffEn.login.loginFailed).toBe('Login failed');
    expect(staffEn.table.emptyTitle).toBe('No applications found');
    expect(staffEn.table.emptyBody).toBe('There are no membership applications to display.');
    expect(staffEn.pager.text).toBe('Page {{page}} of {{pages}} • {{total}} total');
    expect(staffEn.export.button).toBe('Export CSV');
  });
});
