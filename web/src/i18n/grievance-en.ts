// Grievances on the public page (issue 21): the form after the code ("My application"),
// the form with a contact number (/grievance), and the answer page an SMS links to. Its own
// namespace, added by those lazy chunks (./grievance.ts), never in the first view.
export const grievanceEn = {
  title: 'Raise a grievance',
  intro:
    'Tell us what went wrong with your application or with how we use your data. We answer within 90 days, by WhatsApp or SMS to the number you give.',
  mineIntro:
    'Tell us what went wrong with your application or with how we use your data. We answer within 90 days, by WhatsApp or SMS to this number.',
  appliedHint: 'Have you applied? You can also verify your number on the home page and raise it from “My application”.',
  mobileLabel: 'Mobile number for the answer',
  mobileHint: '10 digits, without +91 or 0',
  textLabel: 'Your grievance',
  textHint: 'Up to {{max}} characters. Do not write passwords or codes.',
  counter: '{{count}} of {{max}}',
  submit: 'Send grievance',
  submitting: 'Sending…',
  received: 'We have received your grievance.',
  reference: 'Reference',
  dueBy: 'We will answer by',
  keep: 'Keep the reference and quote it if you write to us. The answer will come to this number by WhatsApp or SMS.',
  another: 'Raise another grievance',
  home: 'Go to the home page',
  failed: 'Your grievance could not be sent. Please try again.',
  fieldErrors: {
    REQUIRED: 'Write your grievance.',
    TOO_LONG: 'Keep it to {{max}} characters.',
    INVALID_CHARACTERS: 'The text holds characters that cannot be stored. Remove them and try again.',
  },
  answer: {
    title: 'The answer to your grievance',
    answeredOn: 'Answered on',
    loading: 'Loading the answer…',
    notFound: 'This link is not valid any more. If you still need help, raise a grievance again.',
  },
};
