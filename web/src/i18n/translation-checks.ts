import { expect, it } from 'vitest';

// The checks every pair of English and Tamil resources must pass (test-only module).
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

/** Every text of a resource tree without its placeholders and markup tags (`<terms>…</terms>`). */
const plainTexts = (tree: Tree): Map<string, string> =>
  new Map(
    [...leaves(tree)].map(([key, text]) => [key, text.replace(/\{\{\s*\w+\s*\}\}/g, ' ').replace(/<\/?\w+>/g, ' ')]),
  );

/**
 * Words of a provider, the auth service or an internal step: they tell a student or a staff
 * member nothing they can act on (docs/TAMIL.md). Meta's error numbers ("(#131026)"), its
 * Business API settings, Cognito's own answers (which also tell unknown emails from wrong
 * passwords), the captcha vendor's name.
 */
const serviceText =
  /Business API|Phone Number ID|credentials|contact the administrator|store OTP|\(#\d+\)|Cognito|Exception|not authori[sz]ed|Invalid password|Incorrect username|reCAPTCHA|graph\.facebook|Meta\b/i;

/** Latin words a Tamil screen may show: the names of English, OTP, SMS and CSV, an example email, a–z. */
const latinAllowedInTamil = new Set([
  ...['English', 'OTP', 'SMS', 'CSV', 'name', 'example.com', 'a', 'z', 'A', 'Z'],
  // The authenticator apps' names as the Play Store shows them in Tamil too (what staff
  // must search for), and "QR", which a phone's camera prompt also says.
  ...['Google', 'Microsoft', 'Authenticator', 'QR'],
  // The file kinds a campaign's code downloads as, as the phone or computer names them, and the paper size.
  ...['SVG', 'PNG', 'PDF', 'A4'],
  // The data copy's file kind (My application's download), as the phone names it.
  'JSON',
]);

/**
 * Registers the check that no provider, auth-service or internal text is in either language.
 * `vendorNotices` are the keys of wording a vendor prescribes (Google's notice where the
 * reCAPTCHA badge is hidden): they may name reCAPTCHA, and nothing else of the list.
 */
export function checkNoServiceText(en: Tree, ta: Tree, vendorNotices: readonly string[] = []): void {
  const texts = (tree: Tree) =>
    new Map(
      [...plainTexts(tree)].map(([key, text]) => [
        key,
        vendorNotices.includes(key) ? text.replace(/\breCAPTCHA\b/g, ' ') : text,
      ]),
    );

  it('shows no provider, auth-service or internal text, in English or Tamil', () => {
    for (const key of vendorNotices) expect(leaves(en).has(key) && leaves(ta).has(key), key).toBe(true);
    for (const [language, tree] of [
      ['en', en],
      ['ta', ta],
    ] as const)
      for (const [key, text] of texts(tree)) expect(text, `${language} ${key}`).not.toMatch(serviceText);
  });

  it('has no English words on a Tamil screen but the few a student knows (OTP, SMS)', () => {
    for (const [key, text] of texts(ta)) {
      const latin = [...text.matchAll(/[A-Za-z][A-Za-z.]*[A-Za-z]|[A-Za-z]/g)].map((m) => m[0]);
      expect(
        latin.filter((word) => !latinAllowedInTamil.has(word)),
        key,
      ).toEqual([]);
    }
  });
}

/**
 * The words docs/TAMIL.md's glossary replaces, each with the reason. One concept, one word:
 * a student should not wonder whether தேர்வுசெய்க and தேர்ந்தெடுக்கவும் ask for different things.
 */
const replacedTamilWords: readonly (readonly [RegExp, string])[] = [
  [/தேர்வுசெய்|தேர்வு செய்/, 'select: தேர்ந்தெடுக்கவும் (public), தேர்ந்தெடு (staff buttons)'],
  [/தொலைபேசி/, 'mobile number: கைபேசி எண்'],
  [/முடியவில்லை/, 'could not: இயலவில்லை'],
  [/விருப்பத்தேர்வு/, 'optional: கட்டாயமில்லை (students read விருப்பத்தேர்வு as "elective")'],
  [/இல்லத்தரசி/, 'Homemaker: இல்லப் பராமரிப்பாளர் (இல்லத்தரசி is female only)'],
  [/இயக்கங்கள்/, 'campaigns: பரப்புரைகள் (இயக்கம் is "the Movement")'],
  [/தெரியவில்லை/, 'Unknown: குறிப்பிடப்படவில்லை (தெரியவில்லை is "don\'t know")'],
  [/முதன்மை (இடங்கள்|மாவட்டங்கள்)/, 'top places: அதிக விண்ணப்பங்கள் உள்ள (முதன்மை is "principal")'],
  [/இவ்வாறு மாற்று/, 'the status dropdown: புதிய நிலை'],
  [/குறியீடு,? எடுத்துக்காட்டாக/, "a password's symbol: சிறப்பு எழுத்து (குறியீடு is the code)"],
  [
    /(^|\s)(செல்க|முயல்க|செய்க|காண்க|உள்ளிடுக|அனுப்புக)(?=$|[\s.,!])/,
    'no -க forms: -வும் (public), the plain command (staff buttons)',
  ],
  [/OTP[\u0B80-\u0BFF]/, 'OTP takes its suffix after a hyphen: OTP-ஐ'],
];

/** Registers the glossary check: none of the replaced words, and the study field is படிப்புப் பிரிவு. */
export function checkGlossary(ta: Tree): void {
  it("uses the glossary's words (docs/TAMIL.md), none of those it replaces", () => {
    for (const [key, text] of leaves(ta)) {
      for (const [word, use] of replacedTamilWords) expect(text, `${key}: ${use}`).not.toMatch(word);
      // கல்வி alone labels "education" in general; the field asks for a stream of study.
      expect(text, `${key}: stream of study is படிப்புப் பிரிவு`).not.toBe('கல்வி');
    }
  });
}

/** The names that begin with the ரா sound, written with or without the leading இ. */
const raSound = /^(இ)?ரா/;

/**
 * Registers the check on Tamil place names: every name with the ரா sound is written one way
 * (without the இ that government lists add), so that in Tamil order they all sort together,
 * where a student looking under ரா finds them.
 */
export function checkTamilNames(names: readonly string[]): void {
  it('writes every name beginning with the ரா sound one way, and they sort together', () => {
    const ra = names.filter((name) => raSound.test(name));
    expect(ra.length).toBeGreaterThan(3);
    expect(ra.filter((name) => name.startsWith('இரா'))).toEqual([]);
    const sorted = [...new Set(names)].sort(new Intl.Collator('ta').compare);
    const positions = sorted.flatMap((name, i) => (raSound.test(name) ? [i] : []));
    expect(positions.at(-1)! - positions[0]!, sorted.slice(positions[0], positions.at(-1)! + 1).join(', ')).toBe(
      positions.length - 1,
    );
  });
}
