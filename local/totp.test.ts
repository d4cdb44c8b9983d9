import { generate, generateSecret, verify } from 'cognito-local/lib/services/totp';
import { describe, expect, it } from 'vitest';
import { base32Decode, totpCode } from './totp';

describe('totpCode', () => {
  it('gives RFC 6238’s own test value (SHA-1, 59 s, last six digits)', () => {
    const secret = Buffer.from('12345678901234567890').toString('hex');
    // The RFC's key in base32: GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ.
    expect(base32Decode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ').toString('hex')).toBe(secret);
    expect(totpCode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', 59_000)).toBe('287082');
    expect(totpCode('gezd gnbv gy3t qojq gezd gnbv gy3t qojq', 1_111_111_109_000)).toBe('081804');
  });

  it('agrees with cognito-local, which checks the codes of the local stack', () => {
    const secret = generateSecret();
    expect(totpCode(secret)).toBe(generate(secret));
    expect(verify(secret, totpCode(secret))).toBe(true);
  });
});
