import type { staffGrievancesEn } from './staff-grievances-en';
import type { Strings } from './strings';

// Tamil strings of the Grievances page (see ./staff-grievances-en.ts). Staff buttons: the
// plain command (/work/shared/TAMIL.md). "Grievance" is குறை, as the data notice says it.
export const staffGrievancesTa: Strings<typeof staffGrievancesEn> = {
  title: 'குறைகள்',
  intro:
    'இன்னும் முடித்துவைக்கப்படாத குறைகள், கடைசி நாள் நெருங்கியவை முதலில். ஒவ்வொன்றுக்கும் தெரிவிக்கப்பட்ட 90 நாட்களுக்குள் பதிலளிக்க வேண்டும்; பதில் எழுதியபடியே அந்த எண்ணுக்கு வாட்ஸ்அப் அல்லது SMS மூலம் செல்லும்.',
  loading: 'குறைகள் ஏற்றப்படுகின்றன…',
  loadFailed: 'குறைகளை ஏற்ற இயலவில்லை.',
  retry: 'மீண்டும் முயலவும்',
  empty: 'காத்திருக்கும் குறைகள் எதுவும் இல்லை.',
  opened: 'தெரிவித்த நாள்',
  due: 'கடைசி நாள்',
  daysLeft_one: '{{count}} நாள் உள்ளது',
  daysLeft_other: '{{count}} நாட்கள் உள்ளன',
  dueToday: 'இன்றே கடைசி நாள்',
  overdue_one: 'கடைசி நாள் கடந்து {{count}} நாள்',
  overdue_other: 'கடைசி நாள் கடந்து {{count}} நாட்கள்',
  status: {
    open: 'பதிலுக்குக் காத்திருக்கிறது',
    answered: 'பதிலளிக்கப்பட்டது',
    closed: 'முடித்துவைக்கப்பட்டது',
  },
  via: 'எண்',
  verified: '{{phone}}, OTP மூலம் உறுதிசெய்யப்பட்டது',
  contact: '{{phone}}, படிவத்தில் கொடுக்கப்பட்டது (உறுதிசெய்யப்படவில்லை)',
  language: 'மொழி',
  languages: {
    en: 'ஆங்கிலம்',
    ta: 'தமிழ்',
  },
  application: 'விண்ணப்பம்',
  noApplication: 'இல்லை',
  district: 'மாவட்டம்',
  text: 'குறை',
  answer: 'பதில்',
  answeredOn: '{{date}} அன்று பதிலளிக்கப்பட்டது.',
  sentOn: '{{date}} அன்று செய்தி ஏற்கப்பட்டது.',
  notSentYet: 'செய்தி அனுப்பப்பட்டுக்கொண்டிருக்கிறது.',
  answerLabel: 'அனுப்ப வேண்டிய பதில்',
  answerHint: 'அதிகபட்சம் {{max}} எழுத்துகள், குறை எழுதப்பட்ட மொழியில். பதில் எழுதியபடியே அந்த எண்ணுக்குச் செல்லும்.',
  send: 'பதிலை அனுப்பு',
  sending: 'அனுப்பப்படுகிறது…',
  close: 'முடித்துவை',
  closing: 'முடித்துவைக்கப்படுகிறது…',
  confirmClose:
    '{{reference}} குறையை முடித்துவைக்கவா? அது இந்தப் பட்டியலிலிருந்து நீங்கும்; தக்கவைப்புக் காலம் முடிந்ததும் நிரந்தரமாக அழிக்கப்படும்.',
  confirm: 'குறையை முடித்துவை',
  cancel: 'ரத்துசெய்',
  answered: '{{reference}} குறைக்கான பதில் சேமிக்கப்பட்டு அனுப்பப்படுகிறது.',
  closed: '{{reference}} குறை முடித்துவைக்கப்பட்டது.',
  failed: 'மாற்றத்தைச் சேமிக்க இயலவில்லை.',
  fieldErrors: {
    REQUIRED: 'பதிலை எழுது.',
    TOO_LONG: 'பதிலை {{max}} எழுத்துகளுக்குள் எழுது.',
    INVALID_CHARACTERS: 'அனுப்ப இயலாத எழுத்துகள் பதிலில் உள்ளன. அவற்றை நீக்கி மீண்டும் முயலவும்.',
  },
};
