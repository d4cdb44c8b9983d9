// Stable error codes: the server answers { error: { code, message } } and the SPA
// translates by code. The English messages are the first version's catalogue, reworded
// where it spoke to operators: a visitor reads what happened and what to do, never a
// provider's or an internal step's name (docs/TAMIL.md).
export const errorMessages = {
  VALIDATION_FAILED: 'Some details are missing or not valid. Please check the form.',
  INVALID_PHONE: 'Please enter a valid 10-digit phone number',
  INVALID_PHONE_START: 'An Indian mobile number starts with 6, 7, 8 or 9.',
  ALREADY_REGISTERED: 'You have already registered with this phone number.',
  CAPTCHA_FAILED: 'The security check failed. Please reload the page and try again.',
  RATE_LIMITED: 'Too many attempts. Please try again later.',
  OTP_NOT_FOUND: 'OTP not found. Please request a new OTP.',
  OTP_EXPIRED: 'OTP has expired. Please request a new one.',
  OTP_INVALID: 'Invalid OTP. Please try again.',
  OTP_TOO_MANY_ATTEMPTS: 'Too many wrong attempts. Please request a new OTP.',
  OTP_STORE_FAILED: 'The code could not be created. Please try again.',
  WHATSAPP_NOT_CONFIGURED: 'Codes cannot be sent by WhatsApp right now. Please try again in a few minutes.',
  WHATSAPP_SEND_FAILED: 'The OTP could not be sent by WhatsApp. Check that this number has WhatsApp, then try again.',
  WHATSAPP_INVALID_PHONE_NUMBER_ID: 'Codes cannot be sent by WhatsApp right now. Please try again in a few minutes.',
  NETWORK_ERROR: 'Network error. Please try again.',
  WHATSAPP_UNDELIVERABLE: 'This number does not seem to have WhatsApp. Check the number, or get the code by SMS.',
  WHATSAPP_BUSY: 'WhatsApp is not accepting more messages right now. Please try again in a minute.',
  SMS_NOT_CONFIGURED: 'Codes cannot be sent by SMS right now. Please try again in a few minutes.',
  SMS_SEND_FAILED: 'Failed to send the OTP by SMS. Please try again.',
  SMS_SWITCH_NOT_ALLOWED: 'The code cannot be sent by SMS now. Please request a new OTP.',
  DELIVERY_HANDLE_INVALID: 'This code request has expired. Please request a new OTP.',
  WEBHOOK_SIGNATURE_INVALID: 'The request signature is missing or not valid.',
  SERVICE_BUSY: 'Many people are applying right now. Trying again…',
  VERIFICATION_FAILED: 'Verification failed. Please try again.',
  VERIFICATION_REQUIRED: 'Your verification has expired. Please verify your phone number again.',
  UNDER_AGE: 'You must be at least 18 years old to apply.',
  SUBMIT_FAILED: 'An error occurred while submitting your application. Please try again.',
  UNAUTHORIZED: 'Please sign in.',
  FORBIDDEN: 'You do not have permission to do this.',
  SEARCH_TOO_BROAD: 'Too many applications match this search. Type more of the name, or the whole number.',
  NOT_FOUND: 'Not found.',
  CARD_NOT_FOUND: 'This card link is not valid any more. Get your card again from the home page.',
  NOT_A_MEMBER: 'There is no membership card for this number yet. A card is made when your application is approved.',
  NO_APPLICATION: 'There is no application for this number.',
  APPLICATION_BUSY: 'Your application was being changed just now. Please try again.',
  GRIEVANCE_NOT_OPEN: 'This grievance has been answered or closed already.',
  PAYLOAD_TOO_LARGE: 'The request is too large.',
  INTERNAL: 'Something went wrong. Please try again.',
} as const;

export type ErrorCode = keyof typeof errorMessages;

export interface ApiErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    /** Field name -> error code, for form errors shown next to their field. */
    fields?: Record<string, string>;
    /** Seconds until a limited request may be tried again. */
    retryAfterSeconds?: number;
    /** Guesses left for the current code. */
    attemptsLeft?: number;
    /** Whether the visitor may ask for the code by SMS instead (the stage has SMS). */
    smsAvailable?: boolean;
    /** ALREADY_REGISTERED from the code check: the number's verification, for "Get my card" (issue 20). */
    verificationToken?: string;
    expiresAt?: string;
  };
}
