import { expect, it } from 'vitest';

// The checks every pair of English and Tamil resources must pass (test-only module).
type Tree = { readonly [key: string]: string | Tree };

export function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of leaves(value, path)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

/** Registers the completeness, placeholder and script checks; `latinKeys` may stay in Latin letters. */
export function checkTranslations(en: Tree, ta: Tree, latinKeys: readonly string[] = []): void {
  const english = leaves(en);
  const tamil = leaves(ta);

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
    for (const [key, text] of tamil) if (!latinKeys.includes(key)) expect(text, key).toMatch(tamilScript);
  });
}
