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
  configError: {
    title: 'The site could not start',
    body: 'We could not load the site settings. Please check your connection and try again.',
    retry: 'Try again',
  },
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
    otpSentTo: 'OTP sent to WhatsApp number:',
    otpLabel: 'Enter OTP',
    verify: 'Verify WhatsApp OTP',
    verifying: 'Verifying...',
    changeNumber: 'Change phone number',
  },
  health: {
    loading: 'Checking service…',
    ok: 'Service online',
    error: 'Service unavailable',
  },
  admin: {
    title: 'Staff sign in',
    intro: 'For party staff only. Sign in with the email and password given to you.',
    email: 'Email',
    password: 'Password',
    login: 'Login',
    signingIn: 'Signing in...',
    loginFailed: 'Login failed',
    emailRequired: 'Please enter your email.',
    passwordRequired: 'Please enter your password.',
  },
  notFound: {
    title: 'Page not found',
    body: 'The page you are looking for does not exist or has moved.',
    home: 'Go to the home page',
  },
  errors: errorMessages,
} as const;

type Strings<T> = { readonly [K in keyof T]: T[K] extends string ? string : Strings<T[K]> };

/** The shape every language must fill: same keys as English, any text. */
export type Messages = Strings<typeof en>;
