import { describe, expect, it } from 'vitest';
import { checkTemplate, type KnownTemplates, type OutgoingMessage, record } from './whatsapp-messages';

// The WhatsApp sandbox knows the grievance answer's template (issue 21) as WhatsApp
// Manager would have it approved: in English and Tamil, its body taking the reference and
// the answer, each parameter on one line (Meta refuses a line break, a tab or five spaces
// in a row with 132018).

const known: KnownTemplates = {
  auth: 'auth2',
  welcome: 'welcome_message',
  decisions: undefined,
  grievance: { name: 'grievance_answer', languages: ['en', 'ta'] },
};

const answer = (parameters: string[], language = 'ta'): OutgoingMessage => ({
  messaging_product: 'whatsapp',
  to: '919876543210',
  type: 'template',
  template: {
    name: 'grievance_answer',
    language: { code: language },
    components: [{ type: 'body', parameters: parameters.map((text) => ({ type: 'text' as const, text })) }],
  },
});

describe('the grievance answer template in the sandbox', () => {
  it('takes the reference and a one-line answer, and records it as a grievance message', () => {
    const message = answer(['K7QM-2XRT', 'We corrected your district.']);
    expect(checkTemplate(message, known)).toBeUndefined();
    expect(record('wamid.1', message, known, Date.parse('2026-11-22T10:00:00Z'))).toMatchObject({
      kind: 'grievance',
      template: 'grievance_answer',
      language: 'ta',
      body: 'K7QM-2XRT We corrected your district.',
    });
  });

  it.each([
    ['a line break', 'line one\nline two'],
    ['a tab', 'one\ttwo'],
    ['five spaces in a row', 'one     two'],
  ])('refuses an answer with %s (132018)', (_what, text) => {
    expect(checkTemplate(answer(['K7QM-2XRT', text]), known)?.code).toBe(132018);
  });

  it('refuses a missing parameter (132000) and a language it is not approved in (132001)', () => {
    expect(checkTemplate(answer(['K7QM-2XRT']), known)?.code).toBe(132000);
    expect(checkTemplate(answer(['K7QM-2XRT', 'ok'], 'hi'), known)?.code).toBe(132001);
  });
});
