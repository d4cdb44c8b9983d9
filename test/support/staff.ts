// Staff users the integration tier creates in cognito-local.
export const testStaff = {
  admin: { email: 'it-admin@example.com', password: 'It-Admin-Password-1!', groups: ['admin'] },
  viewer: { email: 'it-viewer@example.com', password: 'It-Viewer-Password-1!', groups: ['viewer'] },
  nobody: { email: 'it-nobody@example.com', password: 'It-Nobody-Password-1!', groups: [] },
  // Issue 17's scoped roles: a coordinator and a read-only viewer of one district, and a
  // coordinator of two (the listing merges their districts).
  coordinator: {
    email: 'it-coordinator@example.com',
    password: 'It-Coordinator-Password-1!',
    groups: ['coordinator'],
    districts: 'chennai',
  },
  viewerOfChennai: {
    email: 'it-viewer-chennai@example.com',
    password: 'It-Viewer-Chennai-Password-1!',
    groups: ['viewer'],
    districts: 'chennai',
  },
  coordinatorOfTwo: {
    email: 'it-coordinator-two@example.com',
    password: 'It-Coordinator-Two-Password-1!',
    groups: ['coordinator'],
    districts: 'chennai,tiruvallur',
  },
} as const;
