import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { createStaffQueryClient } from './staff-queries';

/** The staff area's query client, one per mount of the area (a test gets a fresh one each render). */
export function StaffQueryProvider({ children }: { children: ReactNode }) {
  const [client] = useState(createStaffQueryClient);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
