// @vitest-environment happy-dom
import { getPublicKeyAsync, signAsync, utils } from '@noble/ed25519';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  base64url,
  type CardClaims,
  encodeClaims,
  joinToken,
  keyId,
  verifyPageHref,
} from '../../../../../rules/member-card';
import { jsonResponse, renderWithI18n } from '../../../testing/render';
import { CARD_KEYS_STORAGE_KEY } from '../api/get-card-keys';
import { VerifyPage } from './verify-page';

// The verification page against a real Ed25519 key pair made here: the signature is
// checked in the page (offline), then the server is asked (online). fetch is mocked at
// the boundary; a tampered token must fail with no server at all.

let secretKey: Uint8Array;
let keys: { keys: { kid: string; x: string }[] };
let kid: string;

beforeAll(async () => {
  secretKey = utils.randomSecretKey();
  const publicKey = await getPublicKeyAsync(secretKey);
  kid = await keyId(publicKey);
  keys = { keys: [{ kid, x: base64url.encode(publicKey) }] };
});

const claims = (): CardClaims => ({
  v: 1,
  k: kid,
  s: 'abcdefghjkmnpqrs',
  i: 'செ. ரா.',
  d: 'salem',
  m: '2026-11-20',
  t: '2026-11-21',
});

async function token(of: CardClaims = claims()): Promise<string> {
  const part = encodeClaims(of);
  return joinToken(part, await signAsync(new TextEncoder().encode(part), secretKey));
}

/** The same signature over other claims: what a forger who edited the QR's text would get. */
async function tampered(): Promise<string> {
  const signature = (await token()).split('.')[1]!;
  return `${encodeClaims({ ...claims(), i: 'X.' })}.${signature}`;
}

const api = vi.fn<typeof fetch>();
type Answer = Response | 'offline';
function serve(answers: { keys: Answer; status?: Answer }) {
  api.mockImplementation((input) => {
    const url = input as string;
    const answer = url.endsWith('/card/keys')
      ? answers.keys
      : url.endsWith('/card/status')
        ? answers.status
        : undefined;
    if (!answer) throw new Error(`unexpected request ${url}`);
    return answer === 'offline' ? Promise.reject(new TypeError('Failed to fetch')) : Promise.resolve(answer.clone());
  });
}
const statusCalls = () => api.mock.calls.filter(([input]) => (input as string).endsWith('/card/status'));

beforeEach(() => {
  vi.stubGlobal('fetch', api);
  window.localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  api.mockReset();
  window.history.replaceState(null, '', '/');
});

async function open(at: string, language: 'en' | 'ta' = 'en') {
  window.history.replaceState(null, '', verifyPageHref(at));
  renderWithI18n(<VerifyPage />, language);
  return screen.findByTestId('verify-verdict');
}

describe('the verification page', () => {
  it('says valid, since when, the district and the initials, and nothing else, for a live card', async () => {
    serve({ keys: jsonResponse(200, keys), status: jsonResponse(200, { valid: true }) });
    const verdict = await open(await token());
    expect(verdict.dataset.state).toBe('valid');
    expect(verdict.textContent).toContain('VALID');
    expect(verdict.textContent).toContain("Member of the Students' Wing");
    const facts = screen.getByTestId('verify-facts');
    expect(facts.textContent).toContain('20 November 2026');
    expect(facts.textContent).toContain('Salem');
    expect(facts.textContent).toContain('செ. ரா.');
    expect(statusCalls()[0]?.[1]?.body).toBe(JSON.stringify({ token: await token() }));
    // The keys are remembered for the next check without a connection.
    expect(JSON.parse(window.localStorage.getItem(CARD_KEYS_STORAGE_KEY)!)).toEqual(keys);
  });

  it('says it in Tamil, with the other language beside it', async () => {
    serve({ keys: jsonResponse(200, keys), status: jsonResponse(200, { valid: true }) });
    const verdict = await open(await token(), 'ta');
    expect(verdict.textContent).toContain('செல்லும்');
    expect(verdict.textContent).toContain('மாணவர் அணியின் உறுப்பினர்');
    expect(verdict.textContent).toContain('VALID');
    expect(screen.getByTestId('verify-facts').textContent).toContain('சேலம்');
    expect(screen.getByTestId('verify-facts').textContent).toContain('20 நவம்பர் 2026');
  });

  it('says not valid when the signature is good but the server says the card is revoked', async () => {
    serve({ keys: jsonResponse(200, keys), status: jsonResponse(200, { valid: false }) });
    const verdict = await open(await token());
    expect(verdict.dataset.state).toBe('not-valid');
    expect(verdict.textContent).toContain('NOT VALID');
    expect(screen.queryByTestId('verify-facts')).toBeNull();
  });

  it('says not valid for a tampered token offline, with remembered keys, without asking the server', async () => {
    window.localStorage.setItem(CARD_KEYS_STORAGE_KEY, JSON.stringify(keys));
    serve({ keys: 'offline', status: 'offline' });
    const verdict = await open(await tampered());
    expect(verdict.dataset.state).toBe('not-valid');
    expect(screen.queryByTestId('verify-facts')).toBeNull();
    expect(statusCalls()).toHaveLength(0);
  });

  it('says not valid for a tampered token online too, without asking for its status', async () => {
    serve({ keys: jsonResponse(200, keys), status: jsonResponse(200, { valid: true }) });
    expect((await open(await tampered())).dataset.state).toBe('not-valid');
    expect(statusCalls()).toHaveLength(0);
  });

  it('says not valid for a token signed by a key that is not the stage’s', async () => {
    const other = utils.randomSecretKey();
    const part = encodeClaims(claims());
    const forged = joinToken(part, await signAsync(new TextEncoder().encode(part), other));
    serve({ keys: jsonResponse(200, keys), status: jsonResponse(200, { valid: true }) });
    expect((await open(forged)).dataset.state).toBe('not-valid');
  });

  it('says the signature is valid but could not be checked online when the status cannot be asked', async () => {
    window.localStorage.setItem(CARD_KEYS_STORAGE_KEY, JSON.stringify(keys));
    serve({ keys: 'offline', status: 'offline' });
    const verdict = await open(await token());
    expect(verdict.dataset.state).toBe('offline');
    expect(verdict.textContent).toContain('SIGNATURE VALID');
    expect(verdict.textContent).toContain('Could not check online');
    expect(screen.getByTestId('verify-facts').textContent).toContain('Salem');
  });

  it('says it could not check with no connection and no remembered keys, and checks again on request', async () => {
    serve({ keys: 'offline', status: 'offline' });
    expect((await open(await token())).dataset.state).toBe('unchecked');
    serve({ keys: jsonResponse(200, keys), status: jsonResponse(200, { valid: true }) });
    await userEvent.click(screen.getByRole('button', { name: 'Check again' }));
    expect(await screen.findByText('VALID')).toBeTruthy();
  });

  it('says not valid for an address that holds no token', async () => {
    serve({ keys: 'offline' });
    expect((await open('nonsense')).dataset.state).toBe('not-valid');
    expect(api).not.toHaveBeenCalled();
  });
});
