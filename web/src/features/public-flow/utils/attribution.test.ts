// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import {
  ATTRIBUTION_STORAGE_KEY,
  attributionFromSearch,
  captureAttribution,
  clearAttribution,
  readAttribution,
} from './attribution';

const open = (address: string) => window.history.replaceState(null, '', address);
const address = () => `${window.location.pathname}${window.location.search}${window.location.hash}`;

afterEach(() => {
  sessionStorage.clear();
  open('/');
});

describe('the attribution of the first visit', () => {
  it('reads the five parameters, lower-cases the codes and drops what is malformed', () => {
    expect(
      attributionFromSearch(
        '?c=TNU234&r=abcdefghjkmn&utm_source=instagram&utm_medium=%20story%20&utm_campaign=Freshers+2026',
      ),
    ).toEqual({
      campaign: 'tnu234',
      referral: 'abcdefghjkmn',
      utm_source: 'instagram',
      utm_medium: 'story',
      utm_campaign: 'Freshers 2026',
    });
    // A code of the wrong length or with a look-alike letter, an empty or over-long value, a control character.
    expect(
      attributionFromSearch(`?c=tnu2340&r=abcdefghjklm&utm_source=&utm_medium=${'x'.repeat(101)}&utm_campaign=a%00b`),
    ).toEqual({});
    expect(attributionFromSearch('')).toEqual({});
  });

  it('keeps it in sessionStorage and takes its parameters out of the address, leaving the rest', () => {
    open('/?lang=x&c=tnu234&utm_source=instagram#top');
    expect(captureAttribution()).toEqual({ campaign: 'tnu234', utm_source: 'instagram' });
    expect(address()).toBe('/?lang=x#top');
    expect(JSON.parse(sessionStorage.getItem(ATTRIBUTION_STORAGE_KEY)!)).toEqual({
      campaign: 'tnu234',
      utm_source: 'instagram',
    });
    // A reload: the address has nothing, the tab still has it.
    expect(captureAttribution()).toEqual({ campaign: 'tnu234', utm_source: 'instagram' });
    expect(readAttribution()).toEqual({ campaign: 'tnu234', utm_source: 'instagram' });
  });

  it('keeps the first link with any well-formed part: a later one in the same tab changes nothing', () => {
    open('/?c=!!bad!!&utm_source=');
    expect(captureAttribution()).toEqual({});
    expect(address()).toBe('/');
    expect(sessionStorage.getItem(ATTRIBUTION_STORAGE_KEY)).toBeNull();

    open('/?r=abcdefghjkmn');
    expect(captureAttribution()).toEqual({ referral: 'abcdefghjkmn' });
    open('/?c=tnu234&utm_source=whatsapp');
    expect(captureAttribution()).toEqual({ referral: 'abcdefghjkmn' });
    expect(address()).toBe('/');
  });

  it('cleans what is stored again, and forgets it once the application went', () => {
    sessionStorage.setItem(ATTRIBUTION_STORAGE_KEY, JSON.stringify({ campaign: 'x', utm_source: 'fb', other: 1 }));
    expect(readAttribution()).toEqual({ utm_source: 'fb' });
    sessionStorage.setItem(ATTRIBUTION_STORAGE_KEY, '{not json');
    expect(readAttribution()).toEqual({});
    clearAttribution();
    expect(sessionStorage.getItem(ATTRIBUTION_STORAGE_KEY)).toBeNull();
  });

  it('leaves the parameters in the address when the tab cannot keep them, and reads them from there', () => {
    const own = Object.getOwnPropertyDescriptor(window, 'sessionStorage');
    const full: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
      removeItem: () => undefined,
    };
    Object.defineProperty(window, 'sessionStorage', { configurable: true, value: full });
    try {
      open('/?c=tnu234');
      expect(captureAttribution()).toEqual({ campaign: 'tnu234' });
      expect(address()).toBe('/?c=tnu234');
      expect(readAttribution()).toEqual({ campaign: 'tnu234' });
    } finally {
      if (own) Object.defineProperty(window, 'sessionStorage', own);
      else Reflect.deleteProperty(window, 'sessionStorage');
    }
  });
});
