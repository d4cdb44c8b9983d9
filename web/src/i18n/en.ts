import type { Strings } from './strings';
import { configErrorText } from './both-languages';
import { errorMessages } from '../../../rules/errors';

// English strings. The error texts are the catalogue in rules/errors.ts, keyed by code.
export const en = {
  shell: {
    documentTitle: "Students' Wing · Membership",
    wingName: "Students' Wing",
    skipToContent: 'Skip to main content',
    homeLink: "Students' Wing home page",
    footer: "© {{year}} Students' Wing",
    loading: 'Loading…',
  },
  language: {
    label: 'Language',
    en: 'English',
    ta: 'தமிழ்',
  },
  configError: configErrorText.en,
  landing: {
    title: 'Become a member',
    description:
      "Join the Students' Wing. Verify your mobile number with a one-time code sent on WhatsApp, then fill in a short membership application.",
  },
  step1: {
    heading: 'Verify your mobile number',
    mobileLabel: 'Mobile number',
    mobileHint: '10 digits, without +91 or 0',
    send: 'Send WhatsApp OTP',
    sending: 'Sending...',
    captchaLoading: 'Preparing the security check…',
    // Google's wording, required where its badge is hidden; the links' addresses are in captcha-notice.tsx.
    captchaNotice:
      'This site is protected by reCAPTCHA and the Google <privacy>Privacy Policy</privacy> and <terms>Terms of Service</terms> apply.',
    // DPDP Act 2023 s.5: the notice is offered before the number leaves the page; <notice> opens it.
    dataNotice: 'Before you send your number, read <notice>how we use your data</notice>.',
    otpSentTo: 'OTP sent to WhatsApp number:',
    otpLabel: 'Enter the 6-digit OTP',
    otpHint: 'Check WhatsApp for a message with your code. It is valid for 5 minutes.',
    verify: 'Verify WhatsApp OTP',
    verifying: 'Verifying...',
    changeNumber: 'Change phone number',
    resend: 'Resend OTP',
    resendIn: 'Resend OTP in {{time}}',
    verified: 'WhatsApp number verified',
    attemptsLeft_one: '{{count}} attempt left.',
    attemptsLeft_other: '{{count}} attempts left.',
  },
  retry: {
    tooMany: 'Too many attempts.',
    seconds_one: 'Please try again in {{count}} second.',
    seconds_other: 'Please try again in {{count}} seconds.',
    minutes_one: 'Please try again in {{count}} minute.',
    minutes_other: 'Please try again in {{count}} minutes.',
  },
  // A busy service: errors.SERVICE_BUSY is said while the page tries again; this once it stops.
  busy: {
    failed: 'Many people are applying right now. Please try again in a minute.',
  },
  // What the visitor reads for a failed send, instead of the provider's or an operator's words.
  sendFailure: {
    unavailable: 'We cannot send codes right now. Please try again in a few minutes.',
    noWhatsapp: 'This number does not seem to have WhatsApp. Check the number and try again.',
    whatsappHelp: 'Check that the number is right and has WhatsApp, then try again in a minute.',
    smsPossible: 'Try again: if WhatsApp cannot take it, the code will come by SMS.',
  },
  // Said only when the service cannot be reached: nothing is shown while all is well.
  health: {
    error: 'The membership service cannot be reached right now. Please try again in a few minutes.',
  },
  // The legal texts: their names (footer, checkbox, number step) and the dialog's words.
  legal: {
    terms: 'Terms and conditions',
    privacy: 'Privacy policy',
    notice: 'Data notice',
    grievance: 'Raise a grievance',
    close: 'Close',
  },
  notFound: {
    title: 'Page not found',
    body: 'The page you are looking for does not exist or has moved.',
    home: 'Go to the home page',
  },
  errors: errorMessages,
} as const;

/** The shape every language must fill: same keys as English, any text. */
export type Messages = Strings<typeof en>;
