import type { Strings } from './strings';

// English strings of the later steps (the code step's channel and delivery lines, the
// application form, the confirmation): a chunk of their own, fetched as the visitor types
// the number; the first view has only the number step's.
export const enForm = {
  // The code step's channel, delivery and SMS lines: they load with the later steps' strings
  // (fetched as the visitor types the number), not with the first view.
  code: {
    smsSentTo: 'OTP sent by SMS to {{number}}',
    fellBack: 'WhatsApp could not take the message, so the OTP was sent by SMS to {{number}}',
    switched: 'A new OTP was sent by SMS to {{number}}. The earlier code no longer works.',
    smsHint: 'Check your SMS messages for the code. It is valid for 5 minutes.',
    verify: 'Verify OTP',
    delivered: 'Delivered',
    notReceived: "Didn't get it?",
    sendBySms: 'Send by SMS',
    sendingBySms: 'Sending by SMS...',
    whatsappFailed: 'The WhatsApp message did not reach your phone.',
    verifiedPhoneSms: 'Verified mobile number',
    verifiedSms: 'Mobile number verified',
    whatsappFailedNoSms:
      'The WhatsApp message did not reach your phone. Check that this number has WhatsApp, then resend the OTP.',
    tooManyAttempts: 'Too many wrong attempts: this OTP no longer works. Request a new OTP.',
  },
  form: {
    heading: 'Join the Movement',
    description:
      "The Students' Wing brings together young people from every district of Tamil Nadu who want to shape the future of their campuses, their towns and the state. Members take part in study circles, campaigns for students' rights and service in their own communities, and they learn how public life works by doing it. Tell us a little about yourself below. Every application is read by our team, and we will contact you on your verified WhatsApp number.",
    verifiedPhone: 'Verified WhatsApp number',
    alternatePhone: 'Alternate mobile number',
    alternatePhoneHint: 'Enter exactly 10 digits',
    name: 'Full name',
    email: 'Email',
    optional: '(optional)',
    gender: 'Gender',
    dateOfBirth: 'Date of birth',
    dateOfBirthHint: 'You must be at least 18 years old.',
    dateOfBirthFormat: 'dd/mm/yyyy',
    district: 'Revenue district',
    districtPlaceholder: 'Select your district',
    constituency: 'Assembly constituency',
    constituencyPlaceholder: 'Select your constituency',
    constituencyNeedsDistrict: 'Select a district first',
    education: 'Stream of study',
    educationPlaceholder: 'Select your stream of study',
    occupation: 'Occupation',
    occupationPlaceholder: 'Select your occupation',
    alreadyMember: 'Are you already a member of the party?',
    yes: 'Yes',
    no: 'No',
    motivation: 'Why do you want to join?',
    motivationHint: 'A few sentences are enough.',
    footerNote:
      'Your details are used only to process your membership and are never sold or shared for advertising. Every field not marked optional is required.',
    // <terms>…</terms>, <privacy>…</privacy> and <notice>…</notice> become links that open the texts.
    terms:
      'I agree to the <terms>terms and conditions</terms> and the <privacy>privacy policy</privacy>, I have read the <notice>data notice</notice>, and I confirm that the information I have given is true and accurate.',
    submit: 'Submit application',
    submitting: 'Submitting...',
  },
  options: {
    gender: { Male: 'Male', Female: 'Female' },
    education: {
      'Arts & Science': 'Arts & Science',
      Engineering: 'Engineering',
      Law: 'Law',
      Medicine: 'Medicine',
      Management: 'Management',
    },
    occupation: {
      Student: 'Student',
      Private: 'Private job',
      Government: 'Government job',
      'Self Employed': 'Self-employed',
      Business: 'Business',
      'Home Maker': 'Homemaker',
    },
  },
  fieldErrors: {
    REQUIRED: 'This field is required.',
    INVALID_PHONE: 'Please enter a valid 10-digit phone number',
    ALTERNATE_PHONE_DIGITS: 'Enter exactly 10 digits.',
    ALTERNATE_PHONE_SAME: 'The alternate number must be different from your verified number.',
    INVALID_EMAIL: 'Please enter a valid email address, such as name@example.com.',
    INVALID_DATE: 'Please enter a valid date of birth.',
    UNDER_AGE: 'You must be at least 18 years old to apply.',
    TERMS_REQUIRED: 'Please accept the terms, the privacy policy and the accuracy of your information.',
    INVALID_CHARACTERS: 'This holds characters that cannot be used here. Please remove them.',
    TOO_LONG: 'This is too long. Please shorten it.',
    INVALID_CODE: 'Enter the 6-digit OTP.',
    INVALID: 'Please check this field.',
  },
  myCard: {
    get: 'Get my card',
    getting: 'Opening your card…',
  },
  confirmation: {
    slogan: 'Together, we shape the future!',
    thanks: 'Thank you for joining! Our team will be in touch with you soon.',
  },
} as const;

/** The shape every language must fill: same keys as English, any text. */
export type FormMessages = Strings<typeof enForm>;
