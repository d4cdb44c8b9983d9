import type { TFunction } from 'i18next';
import { constituencyDisplayEn, matchConstituency, matchDistrict } from '../../../../../rules/districts';
import type { MyApplication } from '../../../../../rules/my-application';
import type { ApplicationRow } from '../../../../../rules/staff-api';
import { toDisplayDate } from '../../../lib/display-date';

// "My application" as labelled lines in the page's language: the screen and the PDF show
// the same ones. Every stored field is listed, empty ones as "Not given", so that nothing
// held is left out of what the applicant sees.

export interface Row {
  readonly label: string;
  readonly value: string;
}

export interface Section {
  readonly heading: string;
  readonly rows: readonly Row[];
}

type T = TFunction<'translation'>;
type MeT = TFunction<'me'>;

const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** An ISO instant as the applicant's day and time in India ("28 November 2026, 9:40 am"), whatever the phone's zone. */
export function formatInstant(iso: string, language: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const locale = language === 'ta' ? 'ta-IN' : 'en-IN';
  let format = timeFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZone: 'Asia/Kolkata',
    });
    timeFormats.set(locale, format);
  }
  return format.format(at);
}

function placeNames(application: ApplicationRow, language: string) {
  const district = application.revenue_district ? matchDistrict(application.revenue_district) : undefined;
  const constituency =
    district && application.assembly_constituency
      ? matchConstituency(district, application.assembly_constituency)
      : undefined;
  const ta = language === 'ta';
  return {
    district: district ? (ta ? district.ta : district.en) : application.revenue_district,
    constituency: constituency
      ? ta
        ? constituency.ta
        : constituencyDisplayEn(constituency.en)
      : application.assembly_constituency,
  };
}

/**
 * The stored row's fields, labelled as the form labels them: the form's own always (an
 * optional one left empty says "Not given"), the others (a campaign, an imported
 * record's address, ...) when the application holds them.
 */
function detailRows(application: ApplicationRow, t: T, me: MeT, language: string): Row[] {
  const yesNo = (value: boolean | undefined) =>
    value === undefined ? undefined : value ? t('form.yes') : t('form.no');
  const option = (group: 'gender' | 'education' | 'occupation', value: string | undefined) =>
    value === undefined ? undefined : t(`options.${group}.${value}` as 'options.gender.Male', { defaultValue: value });
  const places = placeNames(application, language);
  const form: [string, string | undefined][] = [
    [t('form.name'), application.name],
    [me('fields.phone_number'), `+91 ${application.phone_number.replace(/^\+?91/, '')}`],
    [t('form.alternatePhone'), application.alternate_phone_number],
    [t('form.email'), application.email],
    [t('form.gender'), option('gender', application.gender)],
    [t('form.dateOfBirth'), application.date_of_birth && toDisplayDate(application.date_of_birth)],
    [t('form.district'), places.district],
    [t('form.constituency'), places.constituency],
    [t('form.education'), option('education', application.education)],
    [t('form.occupation'), option('occupation', application.occupation)],
    [t('form.alreadyMember'), yesNo(application.is_already_member)],
    [t('form.motivation'), application.motivation],
    [me('fields.application_status'), me(`status.${application.application_status}`)],
    [me('fields.submitted_at'), formatInstant(application.submitted_at, language)],
  ];
  const held: [string, string | undefined][] = [
    [me('fields.specialization'), application.specialization],
    [me('fields.address'), application.address],
    [me('fields.want_to_volunteer'), yesNo(application.want_to_volunteer)],
    [me('fields.want_to_join_and_volunteer'), yesNo(application.want_to_join_and_volunteer)],
    [me('fields.updated_at'), application.updated_at && formatInstant(application.updated_at, language)],
    [me('fields.member_number'), application.member_number],
    [me('fields.campaign_code'), application.campaign_code],
    [me('fields.campaign_id'), application.campaign_id],
    [me('fields.utm_source'), application.utm_source],
    [me('fields.utm_medium'), application.utm_medium],
    [me('fields.utm_campaign'), application.utm_campaign],
    [me('fields.referrer_id'), application.referrer_id],
    [me('fields.id'), application.id],
  ];
  return [
    ...form.map(([label, value]) => ({ label, value: value || me('notGiven') })),
    ...held.flatMap(([label, value]) => (value ? [{ label, value }] : [])),
  ];
}

/** Details, consent, history and messages, in that order. */
export function myApplicationSections(data: MyApplication, t: T, me: MeT, language: string): Section[] {
  const at = (iso: string) => formatInstant(iso, language);
  const consent = data.consent;
  return [
    { heading: me('details'), rows: detailRows(data.application, t, me, language) },
    {
      heading: me('consent.heading'),
      rows: [
        {
          label: '',
          value: consent
            ? me('consent.line', {
                version: consent.termsVersion,
                language: me(`consent.language.${consent.language}`),
                at: at(consent.acceptedAt),
              })
            : me('consent.none'),
        },
      ],
    },
    {
      heading: me('history.heading'),
      rows: data.history.map((step) => ({ label: at(step.at), value: me(`status.${step.status}`) })),
    },
    {
      heading: me('messages.heading'),
      rows: data.messages.length
        ? data.messages.map((message) => ({
            label: at(message.sentAt),
            value: me('messages.line', {
              decision: me(`messages.decision.${message.decision}`),
              channel: me(`messages.channel.${message.channel}`),
              status: me(`messages.status.${message.status}`),
            }),
          }))
        : [{ label: '', value: me('messages.none') }],
    },
  ];
}
