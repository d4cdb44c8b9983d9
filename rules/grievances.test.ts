import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  contactGrievanceRequestSchema,
  GRIEVANCE_ANSWER_MAX,
  GRIEVANCE_TEXT_MAX,
  grievanceAnswerInputSchema,
  grievanceDaysLeft,
  grievanceDueAt,
  grievanceReference,
  isGrievanceId,
  myGrievanceRequestSchema,
  parseGrievanceLink,
} from './grievances';

// The grievances' shared rules (issue 21): the reference an applicant quotes, the due date
// 90 days out, the days left in IST, and the requests' checks with their stable codes.

const codeOf = (schema: v.GenericSchema, body: unknown, field: string) =>
  v.safeParse(schema, body).issues?.find((issue) => issue.path?.[0]?.key === field)?.message;

const contact = { mobile: '9876543210', captchaToken: 'dev.grievance.0.9', text: 'My card is wrong.', language: 'ta' };
const mine = { verificationToken: 'v1.token', text: 'Please correct my district.', language: 'en' };

describe('a ticket', () => {
  it('is quoted by the first eight characters of its id, in capitals', () => {
    expect(grievanceReference('k7qm2xrtabcdefgh')).toBe('K7QM-2XRT');
    expect(isGrievanceId('k7qm2xrtabcdefgh')).toBe(true);
    // Not of the codes' alphabet (0, 1, l, o, i), or not 16 characters.
    for (const id of ['k7qm2xrtabcdefg0', 'k7qm2xrtabcdefg', 'K7QM2XRTABCDEFGH', 'k7qm2xrtabcdefghj']) {
      expect(isGrievanceId(id), id).toBe(false);
    }
  });

  it('is due 90 days after it was opened, to the millisecond', () => {
    expect(grievanceDueAt('2026-11-20T10:15:30.123Z')).toBe('2027-02-18T10:15:30.123Z');
  });

  it('counts whole IST days to its due day: 0 on the day, negative when overdue', () => {
    // Due 2027-02-18 18:00 UTC = 2027-02-18 23:30 IST.
    const due = '2027-02-18T18:00:00.000Z';
    expect(grievanceDaysLeft(due, new Date('2027-02-11T06:00:00Z'))).toBe(7);
    expect(grievanceDaysLeft(due, new Date('2027-02-18T06:00:00Z'))).toBe(0);
    // 19:00 UTC on the 18th is already the 19th in IST: one day overdue.
    expect(grievanceDaysLeft(due, new Date('2027-02-18T19:00:00Z'))).toBe(-1);
    expect(grievanceDaysLeft(grievanceDueAt('2026-11-20T10:00:00Z'), new Date('2026-11-20T10:00:00Z'))).toBe(90);
  });
});

describe('the requests', () => {
  it('take a plain text up to the motivation’s length, trimmed, line breaks and Tamil included', () => {
    expect(v.safeParse(contactGrievanceRequestSchema, contact).success).toBe(true);
    const text = `  ${'அ'.repeat(GRIEVANCE_TEXT_MAX - 20)}\r\nsecond line  `;
    const parsed = v.safeParse(myGrievanceRequestSchema, { ...mine, text });
    expect(parsed.success && parsed.output.text).toBe(text.trim());
  });

  it.each([
    ['missing', undefined, 'REQUIRED'],
    ['blank', '   \n ', 'REQUIRED'],
    ['too long', 'a'.repeat(GRIEVANCE_TEXT_MAX + 1), 'TOO_LONG'],
    ['a control character', 'bad\u0000text', 'INVALID_CHARACTERS'],
    ['a right-to-left override', 'see \u202etxet', 'INVALID_CHARACTERS'],
    ['a lone surrogate', 'text \ud83d', 'INVALID_CHARACTERS'],
  ])('refuse a text %s with its code', (_what, text, code) => {
    expect(codeOf(contactGrievanceRequestSchema, { ...contact, text }, 'text')).toBe(code);
    expect(codeOf(myGrievanceRequestSchema, { ...mine, text }, 'text')).toBe(code);
  });

  it('refuse a number that is no Indian mobile, a missing captcha and a language of neither', () => {
    expect(codeOf(contactGrievanceRequestSchema, { ...contact, mobile: '5876543210' }, 'mobile')).toBe(
      'INVALID_PHONE_START',
    );
    expect(codeOf(contactGrievanceRequestSchema, { ...contact, mobile: '98765' }, 'mobile')).toBe('INVALID_PHONE');
    expect(codeOf(contactGrievanceRequestSchema, { ...contact, captchaToken: '' }, 'captchaToken')).toBe(
      'CAPTCHA_FAILED',
    );
    expect(codeOf(contactGrievanceRequestSchema, { ...contact, language: 'hi' }, 'language')).toBe('REQUIRED');
    expect(codeOf(myGrievanceRequestSchema, { ...mine, verificationToken: 7 }, 'verificationToken')).toBe(
      'VERIFICATION_REQUIRED',
    );
  });

  it('keep the staff answer to one WhatsApp parameter’s room', () => {
    expect(v.safeParse(grievanceAnswerInputSchema, { answer: 'a'.repeat(GRIEVANCE_ANSWER_MAX) }).success).toBe(true);
    expect(codeOf(grievanceAnswerInputSchema, { answer: 'a'.repeat(GRIEVANCE_ANSWER_MAX + 1) }, 'answer')).toBe(
      'TOO_LONG',
    );
    expect(codeOf(grievanceAnswerInputSchema, { answer: ' ' }, 'answer')).toBe('REQUIRED');
  });
});

describe('the answer page’s link', () => {
  it('is the id and a 22-character MAC, nothing else', () => {
    const mac = 'A'.repeat(22);
    expect(parseGrievanceLink(`k7qm2xrtabcdefgh.${mac}`)).toEqual({ id: 'k7qm2xrtabcdefgh', mac });
    for (const link of [`k7qm2xrtabcdefgh.${mac}.x`, `k7qm2xrtabcdefgh.${mac.slice(1)}`, 'k7qm2xrtabcdefgh', 42]) {
      expect(parseGrievanceLink(link), String(link)).toBeUndefined();
    }
  });
});
