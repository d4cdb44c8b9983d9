import { type HealthResponse, healthResponseSchema } from '../../../../../rules/api';
import { apiRequest } from '../../../lib/api-client';

export function getHealth(signal?: AbortSignal): Promise<HealthResponse> {
  return apiRequest('/health', { schema: healthResponseSchema, signal });
}
