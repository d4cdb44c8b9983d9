import {
  exportCompleteResponseSchema,
  type ExportStartRequest,
  exportStartResponseSchema,
} from '../../../rules/staff-api';
import { staffRequest } from './staff-session';

// An export's audit entry, for the dashboard's export and the Reports page's alike: started
// before any row is read; the pages then name it, and the server counts what it serves.

/** POST /api/admin/exports: the audit entry, before any row is read; the rows the export will hold. */
export function startExport(getIdToken: () => Promise<string>, request: ExportStartRequest, signal?: AbortSignal) {
  return staffRequest(getIdToken, '/admin/exports', { method: 'POST', body: request, schema: exportStartResponseSchema, signal });
}

/** Completes the export's audit entry: once, by whoever started it; the server counted its rows. */
export function completeExport(getIdToken: () => Promise<string>, exportId: string, signal?: AbortSignal) {
  return staffRequest(getIdToken, `/admin/exports/${encodeURIComponent(exportId)}/complete`, {
    method: 'POST',
    body: {},
    schema: exportCompleteResponseSchema,
    signal,
  });
}
