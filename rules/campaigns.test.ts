import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import {
  CAMPAIGN_CODE_LENGTH,
  campaignInputSchema,
  campaignIsLive,
  campaignLink,
  cleanAttribution,
  CODE_ALPHABET,
  isCampaignCode,
  referralLink,
  UTM_MAX_LENGTH,
} from './campaigns';

describe('cleanAttribution', () => {
  it('keeps well-formed codes, lower-cased and trimmed, and UTM values trimmed', () => {
    expect(
      cleanAttribution({
        campaign: ' STATE2 ',
        referral: 'ABCDEFGHJKMN',
        utm_source: ' instagram ',
        utm_medium: 'social',
        utm_campaign: 'Freshers 2026',
      }),
    ).toEqual({
      campaign: 'state2',
      referral: 'abcdefghjkmn',
      utm_source: 'instagram',
      utm_medium: 'social',
      utm_campaign: 'Freshers 2026',
    });
  });

  it('drops garbage without an error', () => {
    for (const raw of [undefined, null, 42, 'state2', ['state2'], true]) expect(cleanAttribution(raw)).toEqual({});
    expect(
      cleanAttribution({
        campaign: 'stat01', // 0 and 1 are not in the alphabet
        referral: 'short',
        utm_source: 42,
        utm_medium: '   ',
        utm_campaign: '<script>\u0000</script>',
        other: 'kept nowhere',
      }),
    ).toEqual({});
  });

  it('bounds the lengths: a code of the wrong length or a UTM value over the limit is dropped', () => {
    expect(cleanAttribution({ campaign: 'state22', referral: 'abcdefghjkmnp' })).toEqual({});
    expect(cleanAttribution({ utm_source: 'x'.repeat(UTM_MAX_LENGTH) })).toEqual({
      utm_source: 'x'.repeat(UTM_MAX_LENGTH),
    });
    expect(cleanAttribution({ utm_source: 'x'.repeat(UTM_MAX_LENGTH + 1) })).toEqual({});
  });

  it('never throws and keeps only known keys with string values, whatever arrives', () => {
    fc.assert(
      fc.property(fc.anything(), fc.record({ campaign: fc.anything(), utm_source: fc.string() }), (a, b) => {
        for (const raw of [a, b]) {
          const out = cleanAttribution(raw);
          for (const [key, value] of Object.entries(out)) {
            expect(['campaign', 'referral', 'utm_source', 'utm_medium', 'utm_campaign']).toContain(key);
            expect(typeof value).toBe('string');
          }
          if (out.campaign) expect(isCampaignCode(out.campaign)).toBe(true);
        }
      }),
      { numRuns: 500, seed: 19_2026 },
    );
  });
});

describe('campaignIsLive', () => {
  const campaign = { status: 'active', starts_on: '2026-11-01', ends_on: '2026-11-30' } as const;
  it('is live when active and today is within its dates, both ends included', () => {
    expect(campaignIsLive(campaign, '2026-11-01')).toBe(true);
    expect(campaignIsLive(campaign, '2026-11-15')).toBe(true);
    expect(campaignIsLive(campaign, '2026-11-30')).toBe(true);
  });
  it('is not live before its start, after its end or when paused', () => {
    expect(campaignIsLive(campaign, '2026-10-31')).toBe(false);
    expect(campaignIsLive(campaign, '2026-12-01')).toBe(false);
    expect(campaignIsLive({ ...campaign, status: 'paused' }, '2026-11-15')).toBe(false);
  });
});

describe('campaign input and links', () => {
  const input = {
    name_en: 'Chennai colleges',
    name_ta: 'சென்னைக் கல்லூரிகள்',
    kind: 'college',
    district: 'Chennai',
    starts_on: '2026-11-01',
    ends_on: '2026-11-30',
  };
  it('accepts a campaign and answers the field codes of a bad one', () => {
    expect(v.safeParse(campaignInputSchema, input).success).toBe(true);
    const bad = v.safeParse(campaignInputSchema, { ...input, ends_on: '2026-10-01', name_en: '' });
    expect(bad.success).toBe(false);
    const messages = (bad.issues ?? []).map((i) => i.message);
    expect(messages).toContain('REQUIRED');
  });
  it('refuses an end before the start with INVALID_RANGE', () => {
    const bad = v.safeParse(campaignInputSchema, { ...input, ends_on: '2026-10-01' });
    expect(bad.issues?.map((i) => i.message)).toEqual(['INVALID_RANGE']);
  });
  it('makes links on an origin, with or without a trailing slash', () => {
    expect(campaignLink('https://join.example.org/', 'state2')).toBe('https://join.example.org/?c=state2');
    expect(referralLink('http://localhost:5173', 'abcdefghjkmn')).toBe('http://localhost:5173/?r=abcdefghjkmn');
  });
  it('has an alphabet without look-alikes', () => {
    expect(CODE_ALPHABET).not.toMatch(/[01ilo]/);
    expect(CAMPAIGN_CODE_LENGTH).toBe(6);
  });
});
