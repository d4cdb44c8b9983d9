import { describe, expect, it } from 'vitest';
import { en } from './en';
import { campaignsEn } from './staff-campaigns-en';
import { campaignsTa } from './staff-campaigns-ta';
import { staffGrievancesEn } from './staff-grievances-en';
import { staffGrievancesTa } from './staff-grievances-ta';
import { staffEn } from './staff-en';
import { staffTa } from './staff-ta';
import { ta } from './ta';
import { checkGlossary, checkNoServiceText, checkTranslations } from './translation-checks';

describe('staff area translations', () => {
  checkTranslations(staffEn, staffTa);
  checkNoServiceText(staffEn, staffTa);
  checkGlossary(staffTa);

  it('keeps the spec texts of the dashboard and the login', () => {
    expect(staffEn.login.login).toBe('Login');
    expect(staffEn.login.loginFailed).toBe('Login failed');
    expect(staffEn.table.emptyTitle).toBe('No applications found');
    expect(staffEn.table.emptyBody).toBe('There are no membership applications to display.');
    expect(staffEn.pager.text).toBe('Page {{page}} of {{pages}} • {{total}} total');
    expect(staffEn.export.button).toBe('Export CSV');
  });
});

describe('Grievances page translations', () => {
  checkTranslations(staffGrievancesEn, staffGrievancesTa);
  checkNoServiceText(staffGrievancesEn, staffGrievancesTa);
  checkGlossary(staffGrievancesTa);

  it("names the page as the staff area's navigation does", () => {
    expect(staffGrievancesEn.title).toBe(staffEn.nav.grievances);
    expect(staffGrievancesTa.title).toBe(staffTa.nav.grievances);
  });
});

describe('Campaigns page translations', () => {
  checkTranslations(campaignsEn, campaignsTa);
  checkNoServiceText(campaignsEn, campaignsTa);
  checkGlossary(campaignsTa);

  it("prints the wing's name on the poster as the shell says it", () => {
    expect(campaignsEn.posterWing).toBe(en.shell.wingName);
    expect(campaignsTa.posterWing).toBe(ta.shell.wingName);
  });
});
