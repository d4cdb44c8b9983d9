import type { ReactNode } from 'react';
import { StaffPage } from '../../features/staff-admin/components/staff-page';
import { useStaffSession } from '../../lib/staff-session';

// Its own lazy chunk: the Staff page, for admins. Anyone else gets the not-found page
// (the server refuses them the staff routes anyway).
export function StaffRoute({ fallback }: { fallback: ReactNode }) {
  const { role } = useStaffSession();
  return role === 'admin' ? <StaffPage /> : fallback;
}
