// The details row's card lines and buttons (issue 20), in the staff namespace under
// `card`: a file of their own because staff-en.ts is near the 400-line limit.
export const staffCardEn = {
  label: 'Membership card',
  active: 'Active',
  revoked: 'Revoked',
  valid: 'verifies as valid',
  notValid: 'verifies as not valid',
  issued: 'Issued {{at}}',
  revokedAt: 'Revoked {{at}}',
  reissues_one: 'Reissued {{count}} time',
  reissues_other: 'Reissued {{count}} times',
  revoke: 'Revoke card',
  reissue: 'Reissue card',
  confirmRevoke: 'Revoke this card? Its QR code will verify as not valid, and its link stops working.',
  confirmReissue: 'Reissue this card? The old link and QR code stop working; the member gets a new card.',
  confirm: 'Confirm',
  cancel: 'Cancel',
  working: 'Saving…',
  failed: 'Could not change the card.',
  auditRevoke: 'Card revoked',
  auditReissue: 'Card reissued',
  auditBackfill: 'Member number and card issued',
};
