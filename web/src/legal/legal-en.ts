import { CONTACT_BLOCK, type LegalTexts } from './legal-document';

// What the application checkbox asks the applicant to accept, and the short notice read
// before the number is sent. Keep them true to what the code does (docs/RUNBOOK.md, "Erase a
// person's data", lists where data lives; README's retention table, how long); any change
// here is a new TERMS_VERSION, and legal-ta.ts must say the same.
export const legalEn: LegalTexts = {
  version: 'Version {{version}}',
  backToForm: 'Back to the application',
  contactLabels: { email: 'E-mail', phone: 'Phone' },
  terms: {
    title: 'Terms and conditions',
    intro:
      "These terms apply when you apply to join the Students' Wing through this website. By ticking the box on the application form you accept them.",
    sections: [
      {
        heading: 'Who may apply',
        blocks: [
          'You must be at least 18 years old on the day you apply.',
          'You apply for yourself only, with a mobile number that you use. One application is accepted per mobile number.',
        ],
      },
      {
        heading: 'What you promise',
        blocks: [
          'The information you give is true, complete and your own. An application with false information, or made in another person’s name, may be rejected or removed.',
        ],
      },
      {
        heading: 'What happens to your application',
        blocks: [
          'Sending the form is an application, not membership. The wing’s team reviews every application and may approve or reject it; you are told of the decision on your verified mobile number.',
        ],
      },
      {
        heading: 'Messages we send you',
        blocks: [
          'We send a one-time code (OTP) to verify your number, a welcome message after you apply and a message when your application is decided, by WhatsApp or by SMS. We do not use your number for advertising.',
        ],
      },
      {
        heading: 'Using this website fairly',
        blocks: [
          'Do not try to get around the security check or the limits on codes, apply in bulk, or disturb the service. We may block requests that do.',
        ],
      },
      {
        heading: 'Your personal data',
        blocks: [
          'How we use, share and keep your details, and your rights, are described in the privacy policy, which is part of these terms.',
        ],
      },
      {
        heading: 'Leaving, and changes to these terms',
        blocks: [
          'You may withdraw your application or ask us to erase your details at any time (see the privacy policy).',
          'When we change these terms or the privacy policy, we publish a new version with a new version number. Each application records the version that was accepted.',
        ],
      },
    ],
  },
  // Short and plain on purpose: read on a phone, often by someone of 16 or 17, before they
  // give a number. The privacy policy has the detail; this must not contradict it.
  notice: {
    title: 'Data notice',
    intro:
      "Before you give us your mobile number: this is what the Students' Wing does with your details, and what you can do about it. The wing is responsible for them under India's Digital Personal Data Protection Act, 2023. Only people aged 18 or over can apply.",
    sections: [
      {
        heading: 'What we collect',
        blocks: [
          [
            'your mobile number, to send you a one-time code (OTP) and to reach you on WhatsApp or by SMS;',
            'from the form: your name, email, gender, date of birth, district and assembly constituency, stream of study, occupation, an alternate number if you give one, whether you are already a member, and why you want to join;',
            'which campaign or member’s link brought you here, if any;',
            'when you applied, in which language, and which version of these texts you accepted.',
          ],
        ],
      },
      {
        heading: 'Why',
        blocks: [
          'To check that the number is yours, to handle your application, to contact you about it and about the wing’s work where you live, and to organise the wing by district. Your application shows that you support the party, so only the wing’s staff and the services that run this site see it. We never sell your details or use them for advertising.',
        ],
      },
      {
        heading: 'How long we keep it',
        blocks: [
          [
            'while you are an applicant or a member, until you ask us to erase it;',
            'a rejected application: {{days}} days after the decision, then it is erased;',
            'the code: it works for 5 minutes and is stored only in a scrambled form; the counters that limit how many codes a number can ask for last at most a day. Both are then deleted automatically.',
          ],
        ],
      },
      {
        heading: 'Your rights',
        blocks: [
          'At any time, you can:',
          [
            'ask to see the details we hold about you;',
            'ask us to correct them;',
            'withdraw your consent and ask us to erase your application (what was done before stays valid);',
            'make a complaint (a grievance) to us.',
          ],
          'You can do the first three yourself on this website: enter the mobile number you applied with, type the one-time code we send to it, and open “My application”. There you can also raise a grievance; without a code, use the “Raise a grievance” link at the foot of every page. Or write to the contact below with your name and the mobile number you applied with: we may send a code to that number to check that it is you.',
        ],
      },
      {
        heading: 'Who to contact',
        blocks: ['The person who answers for the wing’s data:', CONTACT_BLOCK],
      },
      {
        heading: 'Complaining to the Data Protection Board',
        blocks: [
          'If we do not answer your grievance, or you are not satisfied with our answer, you can complain to the Data Protection Board of India under the Digital Personal Data Protection Act, 2023. Write to us first: the Board hears a complaint once our grievance route has been used.',
        ],
      },
    ],
  },
  privacy: {
    title: 'Privacy policy',
    intro:
      "The Students' Wing decides why and how the details you give on this website are used, and is responsible for them under India's Digital Personal Data Protection Act, 2023. This policy says what we collect, why, who sees it, how long we keep it, and how you use your rights.",
    sections: [
      {
        heading: 'What we collect',
        blocks: [
          'From the application form:',
          [
            'your verified mobile number (also the number we contact you on by WhatsApp) and an alternate phone number;',
            'your full name and, if you give it, your email address;',
            'gender and date of birth;',
            'revenue district and assembly constituency;',
            'stream of study and occupation;',
            'whether you are already a member of the party, and why you want to join.',
          ],
          'With it we record the time of your application, its language, the version of these texts you accepted, and the status of your application as our team reviews it.',
          'While you verify your number: the code is stored only in a scrambled (hashed) form and is deleted when used, or otherwise after it expires; counters that limit how many codes a number or an internet address may ask for keep the number for about a day; whether each of our messages was delivered is kept for 30 days.',
          'The security check (Google reCAPTCHA) looks at your browser and how the page is used, to tell people from automated programs.',
          'Until you submit, this browser tab keeps what you have typed so that a reload loses nothing; it is removed when the tab closes or when you submit.',
        ],
      },
      {
        heading: 'Why we use it',
        blocks: [
          [
            'to verify that the mobile number is yours and to process your application;',
            'to contact you about your application and the wing’s activities in your area;',
            'to organise the wing by district and constituency, with counts and reports;',
            'to keep the service safe from abuse.',
          ],
          'We do not sell your details and do not use them for advertising.',
        ],
      },
      {
        heading: 'Who sees it',
        blocks: [
          [
            'staff of the Students’ Wing who have a personal account on the staff area; every status change, export and erasure they make is recorded;',
            'the wing’s own membership system, which receives each application when it is submitted;',
            'service providers who handle it for us and only on our instructions: Amazon Web Services (hosting; the data is stored in Mumbai, India), Meta (WhatsApp messages), mobile operators (SMS), and Google (the security check).',
          ],
          'We share details with others only where the law requires it.',
        ],
      },
      {
        heading: 'How long we keep it',
        blocks: [
          'Your application is kept while you are an applicant or member of the wing, and until you ask us to erase it. When we erase it, the application is deleted at once; our record of the erasure keeps only its reference number, who erased it and when. Our database’s point-in-time recovery (the rolling copy that lets us restore it to any moment of the last 35 days after a fault) still holds an erased application for up to 35 days; our service logs (which show at most the last four digits of your number) are gone within 90 days. We ask the holders of the wing’s membership system and of any exported lists to delete your details too. Messages already delivered to your WhatsApp stay with you and with Meta.',
        ],
      },
      {
        heading: 'Your rights',
        blocks: [
          'Under the Digital Personal Data Protection Act, 2023 you may:',
          [
            'ask for a summary of the personal data we hold about you, what we do with it, and with whom we have shared it;',
            'ask us to correct, complete or update it;',
            'withdraw your consent and ask us to erase your details; withdrawing does not affect what was done before;',
            'have a grievance heard by us, and, if you are not satisfied, complain to the Data Protection Board of India;',
            'nominate another person to use these rights for you if you die or cannot act yourself.',
          ],
        ],
      },
      {
        heading: 'How to use your rights',
        blocks: [
          'Contact the Students’ Wing’s office, in person or in writing. Give your name and your verified mobile number so that we can find your application; we may confirm the request on that number before we act on it. We answer as soon as we can, and within the time the law allows.',
        ],
      },
    ],
  },
};
