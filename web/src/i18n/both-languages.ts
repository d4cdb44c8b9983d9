// Texts shown in both languages whatever the visitor reads, so they cannot wait for the
// other language's chunk: they live here, in the first view, and en.ts and ta.ts take
// theirs from this file.

/** The config-error screen: it shows before i18next runs (the language comes from the config). */
export const configErrorText = {
  en: {
    title: 'The site could not start',
    body: 'We could not load the site settings. Please check your connection and try again.',
    retry: 'Try again',
  },
  ta: {
    title: 'தளத்தைத் தொடங்க இயலவில்லை',
    body: 'தள அமைப்புகளை ஏற்ற இயலவில்லை. உங்கள் இணைய இணைப்பைச் சரிபார்த்து மீண்டும் முயலவும்.',
    retry: 'மீண்டும் முயலவும்',
  },
} as const;

/**
 * Spec: "already registered" is said in both languages, the visitor's first. The English is
 * rules/errors.ts's (a test holds them equal), written out so that the catalogue stays out of
 * a Tamil visitor's first view.
 */
export const alreadyRegisteredText = {
  en: 'You have already registered with this phone number.',
  ta: 'இந்தக் கைபேசி எண்ணைக் கொண்டு நீங்கள் ஏற்கெனவே பதிவு செய்துள்ளீர்கள்.',
} as const;
