import { describe, expect, it } from 'vitest';
import { ageOn, latestBirthDateForMinimumAge } from './age';
import { constituencyBelongsTo, districts, isSharedConstituencyName, matchConstituency, matchDistrict } from './districts';
import { istDay, istEndOfDay, istStartOfDay, parseDate } from './ist';
import { isValidMobile, maskPhone, sanitizeMobileInput, toStoredPhone } from './phone';

describe('reference data', () => {
  it('holds 38 districts and 234 constituencies, each named in English and Tamil', () => {
    expect(districts).toHaveLength(38);
    const all = districts.flatMap((d) => d.constituencies);
    expect(all).toHaveLength(234);
    expect(new Set(all.map((c) => c.no)).size).toBe(234);
    expect(districts.find((d) => d.en === 'Chennai')?.constituencies).toHaveLength(16);
    expect(districts.find((d) => d.en === 'Coimbatore')?.constituencies).toHaveLength(10);
    for (const item of [...districts, ...all]) expect(item.ta.trim()).not.toBe('');
  });
  it('knows which district a constituency belongs to', () => {
    const chennai = districts.find((d) => d.en === 'Chennai')!;
    const no = chennai.constituencies[0]!.no;
    expect(constituencyBelongsTo(chennai.id, no)).toBe(true);
    expect(constituencyBelongsTo('coimbatore', no)).toBe(false);
    expect(constituencyBelongsTo('atlantis', no)).toBe(false);
  });
});

describe('phone rules', () => {
  it('accepts Indian mobile numbers only', () => {
    expect(isValidMobile('9876543210')).toBe(true);
    expect(isValidMobile('6000000000')).toBe(true);
    expect(isValidMobile('5876543210')).toBe(false);
    expect(isValidMobile('987654321')).toBe(false);
    expect(isValidMobile('98765432101')).toBe(false);
  });
  it('keeps digits only, cut to 10, as the input does while typing', () => {
    expect(sanitizeMobileInput('+91 98765-43210')).toBe('9198765432');
    expect(sanitizeMobileInput('98765 43210 99')).toBe('9876543210');
  });
  it('stores numbers with the 91 prefix and masks them for logs', () => {
    expect(toStoredPhone('9876543210')).toBe('919876543210');
    expect(toStoredPhone('919876543210')).toBe('919876543210');
    expect(maskPhone('9876543210')).toBe('91XXXXXX3210');
  });
});

describe('IST dates and age', () => {
  it('puts an instant on its IST day', () => {
    expect(istDay(new Date('2026-11-20T18:29:59.999Z'))).toBe('2026-11-20');
    expect(istDay(new Date('2026-11-20T18:30:00.000Z'))).toBe('2026-11-21');
  });
  it('bounds an IST day from 00:00 to 23:59:59.999 IST', () => {
    const day = parseDate('2026-11-21')!;
    expect(istStartOfDay(day).toISOString()).toBe('2026-11-20T18:30:00.000Z');
    expect(istEndOfDay(day).toISOString()).toBe('2026-11-21T18:29:59.999Z');
  });
  it('refuses dates that are not real days', () => {
    expect(parseDate('2026-02-29')).toBeUndefined();
    expect(parseDate('2024-02-29')).toEqual({ year: 2024, month: 2, day: 29 });
    expect(parseDate('21-11-2026')).toBeUndefined();
  });
  it('counts age by year, month and day', () => {
    expect(ageOn({ year: 2008, month: 11, day: 21 }, { year: 2026, month: 11, day: 21 })).toBe(18);
    expect(ageOn({ year: 2008, month: 11, day: 22 }, { year: 2026, month: 11, day: 21 })).toBe(17);
  });
  it('sets the date input maximum 18 years before today in IST', () => {
    // 20 Nov 19:00 UTC is already 21 Nov in India.
    expect(latestBirthDateForMinimumAge(new Date('2026-11-20T19:00:00Z'))).toBe('2008-11-21');
    expect(latestBirthDateForMinimumAge(new Date('2026-02-28T12:00:00Z'))).toBe('2008-02-28');
    expect(latestBirthDateForMinimumAge(new Date('2028-02-29T12:00:00Z'))).toBe('2010-02-28');
  });
});

describe('district matching for imports', () => {
  it.each([
    ['Kanyakumari', 'Kanniyakumari'],
    ['TRICHY', 'Tiruchirappalli'],
    ['The Nilgiris', 'Nilgiris'],
    ['Tuticorin', 'Thoothukudi'],
    ['chennai', 'Chennai'],
    ['மதுரை', 'Madurai'],
    // We write ரா names without the இ; older lists write it (docs/TAMIL.md).
    ['ராமநாதபுரம்', 'Ramanathapuram'],
    ['இராமநாதபுரம்', 'Ramanathapuram'],
  ])('%s is %s', (name, en) => {
    expect(matchDistrict(name)?.en).toBe(en);
  });
  it('knows no made-up district, and matches constituencies within their district only', () => {
    expect(matchDistrict('Gotham')).toBeUndefined();
    const chennai = matchDistrict('Chennai')!;
    const first = chennai.constituencies[0]!;
    expect(matchConstituency(chennai, first.en.toUpperCase())?.no).toBe(first.no);
    expect(matchConstituency(matchDistrict('Madurai')!, first.en)).toBeUndefined();
    expect(matchConstituency(chennai, 'இராயபுரம்')?.en).toBe('Royapuram');
    // Shown with the name people know it by; the official name alone still matches.
    expect(matchConstituency(chennai, 'டாக்டர் ராதாகிருஷ்ணன் நகர்')?.en).toBe('Dr. Radhakrishnan Nagar');
    expect(matchConstituency(chennai, 'ஆர்.கே. நகர்')?.en).toBe('Dr. Radhakrishnan Nagar');
    expect(chennai.constituencies.find((c) => c.no === 11)?.ta).toBe('ராதாகிருஷ்ணன் நகர் (ஆர்.கே.)');
  });
  it('knows the names two districts share', () => {
    expect(isSharedConstituencyName('Attur')).toBe(false);
    expect(isSharedConstituencyName('ஆத்தூர்')).toBe(true);
    expect(isSharedConstituencyName('திருப்பத்தூர்')).toBe(true);
    expect(isSharedConstituencyName('Melur')).toBe(false);
  });
});
