// Staff users the integration tier creates in cognito-local.
export const testStaff = {
  admin: { email: 'it-admin@example.com', password: 'It-Admin-Password-1!', groups: ['admin'] },
  viewer: { email: 'it-viewer@example.com', password: 'It-Viewer-Password-1!', groups: ['viewer'] },
  nobody: { email: 'it-nobody@example.com', password: 'It-Nobody-Password-1!', groups: [] },
} as const;
