import {
  type GrievanceAnswerView,
  grievanceAnswerViewSchema,
  type GrievanceOpened,
  grievanceOpenedSchema,
} from '../../../../../rules/grievances';
import { apiRequest } from '../../../lib/api-client';

// Grievances (issue 21): opened after the code (by the number's verification, read and not
// spent) or with a contact number and the captcha; and the answer page's read by its link.

/** POST /api/me/grievances. */
export function openMyGrievance(
  verificationToken: string,
  text: string,
  language: 'en' | 'ta',
): Promise<GrievanceOpened> {
  return apiRequest('/me/grievances', {
    method: 'POST',
    body: { verificationToken, text, language },
    schema: grievanceOpenedSchema,
  });
}

/** POST /api/grievances. */
export function openContactGrievance(body: {
  mobile: string;
  captchaToken: string;
  text: string;
  language: 'en' | 'ta';
}): Promise<GrievanceOpened> {
  return apiRequest('/grievances', { method: 'POST', body, schema: grievanceOpenedSchema });
}

/** POST /api/grievances/answer: the link's secret part in the body (never in a URL a log keeps). */
export function getGrievanceAnswer(link: string, signal?: AbortSignal): Promise<GrievanceAnswerView> {
  return apiRequest('/grievances/answer', {
    method: 'POST',
    body: { link },
    schema: grievanceAnswerViewSchema,
    ...(signal && { signal }),
  });
}
