import { describe, expect, it } from 'vitest';
import { findLeaks, findLeaksInLines, tenDigits } from './log-scan';

describe('log scan', () => {
  const secrets = { phones: ['919876543210'], codes: ['482913'] };
  it('finds full numbers with or without the prefix, and codes', () => {
    expect(findLeaks('{"phone":"919876543210"}', secrets)).toEqual(['phone number on log line 1']);
    expect(findLeaks('ok\n{"to":"9876543210"}', secrets)).toEqual(['phone number on log line 2']);
    expect(findLeaks('{"msg":"code 482913 sent"}', secrets)).toEqual(['code on log line 1']);
  });
  it('lets masked numbers and longer digit runs pass', () => {
    expect(findLeaks('{"phone":"91XXXXXX3210","t":14829130}', secrets)).toEqual([]);
  });

  // A handler line as Powertools writes it, with one planted leak each time.
  const line = (extra: Record<string, unknown>) =>
    JSON.stringify({
      level: 'INFO',
      message: 'OTP sent',
      service: 'membership',
      requestId: 'r-1',
      phone: '91XXXXXX3210',
      ...extra,
    });
  const known = {
    phones: ['9876543210'],
    codes: ['482913'],
    tokens: ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI5MTk4NzY1NDMyMTAifQ.c2lnbmF0dXJlLXZhbHVl'],
    secrets: ['local-whatsapp-token'],
  };

  it('finds each planted leak in a handler line, and says where without saying what', () => {
    const clean = line({ attemptsLeft: 4, durationMs: 482_913_0 });
    const lines = [
      clean,
      line({ to: '919876543210' }),
      clean,
      line({ detail: 'code 482913' }),
      line({ verificationToken: known.tokens[0] }),
      line({ header: 'Bearer local-whatsapp-token' }),
    ];
    const leaks = findLeaksInLines(lines, known);
    expect(leaks).toEqual([
      { what: 'phone number', line: 2 },
      { what: 'code', line: 4 },
      { what: 'token', line: 5 },
      { what: 'secret', line: 6 },
    ]);
    expect(JSON.stringify(leaks)).not.toMatch(/9876543210|482913|local-whatsapp/);
    expect(findLeaksInLines([clean, clean], known)).toEqual([]);
  });

  it('does not take the digits inside a request id for a code', () => {
    const ids = line({ requestId: 'dce730c0-ebb3-42b9-b1e8-d482913a064b' });
    expect(findLeaksInLines([ids], known)).toEqual([]);
    // The same digits on their own are still a code.
    expect(findLeaksInLines([line({ requestId: 'dce730c0', note: '482913' })], known)).toEqual([
      { what: 'code', line: 1 },
    ]);
  });

  it('with patterns, finds numbers and JWTs nobody listed', () => {
    const unknownNumber = line({ alternate: '7012345678' });
    const unknownJwt = line({
      authorization: 'Bearer eyJraWQiOiJDb2duaXRvTG9jYWwifQ.eyJzdWIiOiJhZG1pbiJ9.c2lnbmF0dXJlLWJ5dGVz',
    });
    expect(findLeaksInLines([unknownNumber, unknownJwt], known)).toEqual([]);
    expect(findLeaksInLines([unknownNumber, unknownJwt], known, { patterns: true })).toEqual([
      { what: 'phone number (not among the known ones)', line: 1 },
      { what: 'JWT', line: 2 },
    ]);
    // Timestamps, epoch seconds and milliseconds, UUIDs and masked numbers are not numbers of people.
    const ordinary = line({
      timestamp: '2026-11-21T10:00:00.123Z',
      at: 1_763_719_200,
      atMs: 1_763_719_200_123,
      applicationId: '3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b',
      // Ten digits inside a UUID's last segment.
      requestId: 'd995a492-cd12-4c18-a830-7456382270de',
    });
    expect(findLeaksInLines([ordinary], known, { patterns: true })).toEqual([]);
  });

  it('with patterns, finds a member card link and a card QR token (issue 20), wherever they stand', () => {
    const link = 'abcdefghjkmnpq23.Qk9ndXNfbWFjX3ZhbHVlXz';
    const token = `eyJ2IjoxLCJrIjoiYWJjZGVmZ2giLCJzIjoi.${'A'.repeat(86)}`;
    const lines = [
      line({ url: `https://example.org/card#${link}` }),
      line({ body: `Your membership card: https://example.org/card?#${link} - Students' Wing` }),
      line({ qr: `https://example.org/v#${token}` }),
    ];
    expect(findLeaksInLines(lines, known)).toEqual([]);
    expect(findLeaksInLines(lines, known, { patterns: true })).toEqual([
      { what: 'card link', line: 1 },
      { what: 'card token', line: 3 },
    ]);
    // A referral code, a request id and a host name are no card link.
    const ordinary = line({ code: 'abcdefgh', requestId: 'abcdefghjkmnpq23', host: 'abcdefghjkmnpq23.example.org' });
    expect(findLeaksInLines([ordinary], known, { patterns: true })).toEqual([]);
  });

  it('reads a number in any of the forms a person types it', () => {
    expect(['9876543210', '919876543210', '+91 98765 43210', '+91-9876543210'].map(tenDigits)).toEqual(
      Array(4).fill('9876543210'),
    );
    expect(['5123456789', '12345', '91987654321'].map(tenDigits)).toEqual([undefined, undefined, undefined]);
  });
});
