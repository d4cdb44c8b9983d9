import type { Strings } from './strings';
import type { staffCardEn } from './staff-card-en';

// Staff buttons: plain commands. Revoke is திரும்பப் பெறு (withdraw): ரத்துசெய் is the
// staff area's Cancel, and both buttons stand side by side in the confirmation.
export const staffCardTa: Strings<typeof staffCardEn> = {
  label: 'உறுப்பினர் அட்டை',
  active: 'செயலில்',
  revoked: 'திரும்பப் பெறப்பட்டது',
  valid: 'சரிபார்ப்பில் செல்லும்',
  notValid: 'சரிபார்ப்பில் செல்லாது',
  issued: 'வழங்கப்பட்டது: {{at}}',
  revokedAt: 'திரும்பப் பெறப்பட்டது: {{at}}',
  reissues_one: '{{count}} முறை மீண்டும் வழங்கப்பட்டது',
  reissues_other: '{{count}} முறை மீண்டும் வழங்கப்பட்டது',
  revoke: 'அட்டையைத் திரும்பப் பெறு',
  reissue: 'அட்டையை மீண்டும் வழங்கு',
  confirmRevoke: 'இந்த அட்டையைத் திரும்பப் பெறவா? அதன் QR குறியீடு செல்லாது எனக் காட்டும்; அதன் இணைப்பு இனி இயங்காது.',
  confirmReissue: 'இந்த அட்டையை மீண்டும் வழங்கவா? பழைய இணைப்பும் QR குறியீடும் இனி இயங்காது; உறுப்பினருக்குப் புதிய அட்டை கிடைக்கும்.',
  confirm: 'உறுதிசெய்',
  cancel: 'ரத்துசெய்',
  working: 'சேமிக்கிறது…',
  failed: 'அட்டையை மாற்ற இயலவில்லை.',
  auditRevoke: 'அட்டை திரும்பப் பெறப்பட்டது',
  auditReissue: 'அட்டை மீண்டும் வழங்கப்பட்டது',
  auditBackfill: 'உறுப்பினர் எண்ணும் அட்டையும் வழங்கப்பட்டன',
};
