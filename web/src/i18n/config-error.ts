// The config-error screen's words in both languages. It shows before i18next runs (the
// default language comes from the config that failed), so its strings live here, outside
// the per-language chunks; en.ts and ta.ts take theirs from this file.
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
