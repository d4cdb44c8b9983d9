import type { Strings } from './strings';
import type { staffAuditEn } from './staff-audit-en';

export const staffAuditTa: Strings<typeof staffAuditEn> = {
  heading: 'தணிக்கைப் பதிவு',
  empty: 'இதுவரை மாற்றங்கள் எதுவும் இல்லை.',
  note: 'குறிப்பு',
  erase: 'அழிக்கப்பட்டது',
  export: 'ஏற்றுமதி செய்யப்பட்டது',
  correction: 'விண்ணப்பதாரர் திருத்தியவை: {{fields}}',
  byApplicant: 'விண்ணப்பதாரர்',
  field: {
    name: 'பெயர்',
    email: 'மின்னஞ்சல்',
    alternate_phone_number: 'மாற்றுக் கைபேசி எண்',
    revenue_district: 'மாவட்டம்',
    assembly_constituency: 'சட்டமன்றத் தொகுதி',
    education: 'படிப்புப் பிரிவு',
    occupation: 'தொழில்',
  },
};
