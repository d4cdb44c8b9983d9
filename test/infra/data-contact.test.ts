import { describe, expect, it } from 'vitest';
import { settingsFindings } from '../../lib/placeholders';
import { dataContactSchema, loadStageConfig, stageConfigSchema, stageConfigs, stageNames } from '../../lib/stages';

// Who answers for the wing's data (issue 21): the notice shows it to every visitor before
// they send a number, so a stage cannot synthesize without one that looks like a contact,
// and the preflight blocks while it is the placeholder.

const valid = { name: 'R. Kumar, Data Protection Officer', email: 'privacy@example.org', phone: '+91 44 2345 6789' };

describe('dataContact', () => {
  it('accepts a name or office with an e-mail, the phone optional', () => {
    expect(dataContactSchema.parse(valid)).toEqual(valid);
    const { phone: _phone, ...withoutPhone } = valid;
    expect(dataContactSchema.parse(withoutPhone)).toEqual(withoutPhone);
    expect(dataContactSchema.parse({ ...valid, phone: '044-2345-6789' }).phone).toBe('044-2345-6789');
  });

  it.each([
    ['an e-mail that is not one', { ...valid, email: 'privacy at example.org' }, 'email'],
    ['an e-mail without a domain', { ...valid, email: 'privacy@' }, 'email'],
    ['no e-mail', { name: valid.name }, 'email'],
    ['a blank name', { ...valid, name: '   ' }, 'name'],
    ['a phone with letters', { ...valid, phone: '+91 44 CALL US' }, 'phone'],
    ['a phone too short to dial', { ...valid, phone: '123' }, 'phone'],
  ])('refuses %s', (_, contact, field) => {
    const result = dataContactSchema.safeParse(contact);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toContain(field);
  });

  it('is required of every stage, and a bad one fails the stage with its path', () => {
    const { dataContact: _dataContact, ...withoutContact } = stageConfigs.prod;
    expect(stageConfigSchema.safeParse(withoutContact).error?.issues[0]?.path).toEqual(['dataContact']);
    const bad = stageConfigSchema.safeParse({ ...stageConfigs.prod, dataContact: { ...valid, email: 'nobody' } });
    expect(bad.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['dataContact.email']);
  });

  it('blocks the preflight while a stage names the placeholder, and not once it names a person', () => {
    for (const stage of stageNames) {
      const findings = settingsFindings(loadStageConfig(stage)).filter((finding) => finding.id === 'dataContact');
      expect(
        findings.map((finding) => finding.severity),
        stage,
      ).toEqual(['blocking']);
    }
    const named = stageConfigSchema.parse({ ...stageConfigs.prod, dataContact: valid });
    expect(settingsFindings(named).map((finding) => finding.id)).not.toContain('dataContact');
  });
});
