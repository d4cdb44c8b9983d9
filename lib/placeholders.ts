import { type ConfigFinding, isPlaceholder, usesSms, usesWhatsapp } from '../contracts/config-findings';
import { stackNames } from '../contracts/stack-names';
import type { StageConfig } from './stages';

// What a stage still lacks before it can serve visitors: placeholders left in its settings
// (lib/stages.ts); the provider secret's empty fields are in contracts/config-findings.ts.
// One list, read by the health route (which names the missing settings to the operator) and
// by the preflight (`npm run preflight -- --stage <name>`, which also says why and how to fix each).

/**
 * WhatsApp fetches a template's video header itself and accepts only the file (MP4 or
 * 3GPP over HTTPS): a page such as YouTube's fails every send with error 131053.
 */
function isDirectVideoUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return parsed.protocol === 'https:' && /\.(mp4|3gpp?)$/i.test(parsed.pathname);
}

/** reCAPTCHA site keys are 40 characters of letters, digits, `-` and `_`. */
const recaptchaKeyPattern = /^[\w-]{40}$/;

const stagesFile = 'lib/stages.ts';

/** Findings of the stage's settings alone: no AWS call, so the unit tier and synth can run them. */
export function settingsFindings(config: StageConfig): ConfigFinding[] {
  const findings: ConfigFinding[] = [];
  const stage = config.stage;

  if (!config.alarmEmail) {
    findings.push({
      id: 'alarmEmail',
      severity: 'blocking',
      problem: `Stage ${stage} has no alarm destination: alarmEmail is not set.`,
      why: 'Every alarm (errors, dead letters, WhatsApp refusing, the tier filling up) goes to an SNS topic nobody is subscribed to: a failure would be found by visitors, not by the operator.',
      fix: `Set alarmEmail for ${stage} in ${stagesFile}, deploy (npx cdk deploy ${stackNames(config).app} -c stage=${stage}) and confirm the subscription e-mail AWS sends.`,
    });
  }

  const siteKey = config.captcha.siteKey;
  if (isPlaceholder(siteKey)) {
    findings.push({
      id: 'captcha.siteKey',
      severity: 'blocking',
      problem: `captcha.siteKey of ${stage} is a placeholder (${siteKey}).`,
      why: 'The page cannot get a reCAPTCHA token, so every code request is refused with CAPTCHA_FAILED: nobody can apply.',
      fix: `Register a reCAPTCHA v3 key for the site's domain at https://www.google.com/recaptcha/admin, put the site key in captcha.siteKey for ${stage} in ${stagesFile} and the secret key in the provider secret (recaptchaSecret), then deploy.`,
    });
  } else if (!recaptchaKeyPattern.test(siteKey)) {
    findings.push({
      id: 'captcha.siteKey',
      severity: 'warning',
      problem: `captcha.siteKey of ${stage} does not look like a reCAPTCHA key (40 letters, digits, - or _).`,
      why: 'A mistyped key makes reCAPTCHA refuse every token: every code request would answer CAPTCHA_FAILED.',
      fix: `Copy the site key again from https://www.google.com/recaptcha/admin into captcha.siteKey for ${stage} in ${stagesFile}.`,
    });
  }

  const video = config.whatsapp.welcomeVideoUrl;
  if (usesWhatsapp(config) && (isPlaceholder(video) || !isDirectVideoUrl(video))) {
    findings.push({
      id: 'whatsapp.welcomeVideoUrl',
      severity: 'warning',
      problem: isPlaceholder(video)
        ? `whatsapp.welcomeVideoUrl of ${stage} is a placeholder (${video}).`
        : `whatsapp.welcomeVideoUrl of ${stage} is not a direct link to an MP4 file (${video}).`,
      why: 'WhatsApp downloads the welcome video itself and accepts only the file over HTTPS: every welcome message fails with error 131053 and ends in the dead-letter queue.',
      fix: `Upload the video as an .mp4 (H.264, AAC, at most 16 MB) where it is served over HTTPS, and set its URL as whatsapp.welcomeVideoUrl for ${stage} in ${stagesFile}.`,
    });
  }

  const sms = config.messaging.sms;
  if (sms && usesSms(config)) {
    const dlt: Array<[string, string]> = [
      ['messaging.sms.originationIdentity', sms.originationIdentity],
      ['messaging.sms.entityId', sms.entityId],
    ];
    for (const [kind, pair] of Object.entries(sms.templates)) {
      for (const [language, template] of Object.entries(pair ?? {})) {
        if (template) dlt.push([`messaging.sms.templates.${kind}.${language}.templateId`, template.templateId]);
      }
    }
    for (const [id, value] of dlt) {
      if (!isPlaceholder(value)) continue;
      const otp = id.startsWith('messaging.sms.templates.otp') || !id.startsWith('messaging.sms.templates');
      findings.push({
        id,
        severity: otp && config.messaging.otpChannels === 'sms' ? 'blocking' : 'warning',
        problem: `${id} of ${stage} is a placeholder (${value}).`,
        why: 'Indian operators block every SMS whose sender id, entity id or template id is not registered on DLT: codes (and notices) by SMS would not arrive.',
        fix: `Copy the registered value from the DLT portal into ${id} for ${stage} in ${stagesFile} (docs/MESSAGING.md, "SMS under DLT"), then deploy.`,
      });
    }
  }

  // The withdrawal's confirmation (issue 21): a number WhatsApp cannot reach needs the SMS template.
  if (config.messaging.withdrawalConfirmations.enabled && sms && usesSms(config) && !sms.templates.withdrawn) {
    findings.push({
      id: 'messaging.sms.templates.withdrawn',
      severity: 'warning',
      problem: `messaging.sms.templates.withdrawn of ${stage} is not set, while withdrawal confirmations are on.`,
      why: 'An applicant whose number WhatsApp cannot reach withdraws and gets no confirmation message: it fails at WhatsApp and ends in the dead-letter queue.',
      fix: `Register the withdrawal confirmation's template on the DLT portal (service-implicit, docs/MESSAGING.md) and put its id and text in messaging.sms.templates.withdrawn for ${stage} in ${stagesFile}, then deploy.`,
    });
  }

  const contact = config.dataContact;
  if (isPlaceholder(contact.email) || isPlaceholder(contact.name)) {
    findings.push({
      id: 'dataContact',
      severity: 'blocking',
      problem: `dataContact of ${stage} is a placeholder (${contact.email}).`,
      why: "The notice shown before a visitor sends their number names this contact as the one to write to for access, correction, erasure and grievances (DPDP Act 2023): a placeholder gives applicants nobody to reach, and the notice would not be the wing's.",
      fix: `Put the name or office, e-mail and (optionally) phone of the person who answers for the wing's data in dataContact for ${stage} in ${stagesFile}, then deploy.`,
    });
  }
  return findings;
}
