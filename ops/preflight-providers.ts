import * as v from 'valibot';
import * as z from 'zod';
import type { ProviderSecrets } from '../lambdas/adapters/secrets';
import { publicFlowEnvSchema } from '../lambdas/lib/env';
import { isPlaceholder, usesWhatsapp } from '../contracts/config-findings';
import { whatsappTiers, type StageConfig } from '../lib/stages';
import type { PreflightReport } from './preflight-report';

// The preflight's calls outside AWS, each harmless: a siteverify with a dummy token (no
// visitor is scored), and reads of the WhatsApp number and templates (nothing is sent).
// The URLs and the Graph API version are those the functions use (lambdas/lib/env.ts).

const functionDefault = (key: 'CAPTCHA_VERIFY_URL' | 'WHATSAPP_API_BASE_URL' | 'WHATSAPP_API_VERSION') =>
  v.parse(publicFlowEnvSchema.entries[key], undefined);
export const SITEVERIFY_URL = functionDefault('CAPTCHA_VERIFY_URL');
export const GRAPH_URL = `${functionDefault('WHATSAPP_API_BASE_URL').replace(/\/$/, '')}/${functionDefault('WHATSAPP_API_VERSION')}`;
const TIMEOUT_MS = 10_000;

const siteverifySchema = z.object({ success: z.boolean(), 'error-codes': z.array(z.string()).default([]) });

export async function checkCaptchaSecret(
  report: PreflightReport,
  fetchImpl: typeof fetch,
  config: StageConfig,
  secret: string,
): Promise<void> {
  let body: unknown;
  try {
    const response = await fetchImpl(SITEVERIFY_URL, {
      method: 'POST',
      body: new URLSearchParams({ secret, response: 'preflight-dummy-token' }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    body = await response.json();
  } catch (error) {
    report.add({
      id: 'captcha.secret',
      severity: 'warning',
      problem: `Google's siteverify did not answer (${(error as Error).name}).`,
      why: 'Whether the reCAPTCHA secret is right was not checked.',
      fix: 'Run the preflight again from a machine that reaches www.google.com.',
    });
    return;
  }
  const result = siteverifySchema.safeParse(body);
  if (result.success && result.data['error-codes'].includes('invalid-input-secret')) {
    report.add({
      id: 'secret:provider.recaptchaSecret',
      severity: 'blocking',
      problem: `Google does not know the recaptchaSecret in the provider secret of ${config.stage} (invalid-input-secret).`,
      why: 'No token can be verified: every code request answers CAPTCHA_FAILED, and nobody can apply.',
      fix: 'Copy the secret key of the stage\'s key from https://www.google.com/recaptcha/admin (the key → Settings → reCAPTCHA keys) into recaptchaSecret of the provider secret (docs/RUNBOOK.md, "Secrets: set and rotate").',
    });
  } else if (result.success) {
    report.pass('reCAPTCHA secret: Google knows it (a dummy token was refused as a token, not for the secret)');
  } else {
    report.add({
      id: 'captcha.secret',
      severity: 'warning',
      problem: "Google's siteverify answered something unexpected.",
      why: 'Whether the reCAPTCHA secret is right was not checked.',
      fix: 'Run the preflight again later.',
    });
  }
}

/** reCAPTCHA has no API that says which domains a v3 key allows: the operator looks. */
export function captchaDomainsNote(report: PreflightReport, config: StageConfig, siteUrl: string | undefined): void {
  const cloudFront = siteUrl ? new URL(siteUrl).hostname : undefined;
  const domains = [config.customDomain?.domainName, cloudFront].filter((d): d is string => d !== undefined);
  const list =
    domains.length > 0
      ? domains.join(' and ')
      : "the site's CloudFront domain (the App stack's SiteUrl output, after the first deploy)";
  report.add({
    id: 'captcha.domains',
    severity: 'note',
    problem:
      "Which domains the reCAPTCHA key allows cannot be checked by API for reCAPTCHA v3; nor whether the site key and the secret are one key's pair.",
    why: 'A key that does not list the domain the page is served from makes Google refuse its tokens: every code request answers CAPTCHA_FAILED.',
    fix: `Check by hand at https://www.google.com/recaptcha/admin: ${isPlaceholder(config.captcha.siteKey) ? 'the key you register for the stage (captcha.siteKey is still a placeholder)' : `the key whose site key is ${config.captcha.siteKey}`} is of type "Score based (v3)", its Domains list ${list}, and its secret key is the recaptchaSecret of the provider secret.`,
  });
}

const graphErrorSchema = z.object({
  error: z.object({
    message: z.string().optional(),
    code: z.number().optional(),
    error_subcode: z.number().optional(),
  }),
});
type GraphError = { status: number; code?: number; subcode?: number; message?: string };
type GraphResult = { ok: true; body: unknown } | { ok: false; error: GraphError } | { ok: false; unreachable: string };

async function graphGet(fetchImpl: typeof fetch, token: string, path: string): Promise<GraphResult> {
  let response: Response;
  let body: unknown;
  try {
    response = await fetchImpl(`${GRAPH_URL}/${path}`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    body = await response.json().catch(() => undefined);
  } catch (error) {
    return { ok: false, unreachable: (error as Error).name };
  }
  if (response.ok) return { ok: true, body };
  const parsed = graphErrorSchema.safeParse(body);
  return {
    ok: false,
    error: {
      status: response.status,
      ...(parsed.success && {
        code: parsed.data.error.code,
        subcode: parsed.data.error.error_subcode,
        message: parsed.data.error.message,
      }),
    },
  };
}

const describeGraphError = (e: GraphError) =>
  `HTTP ${e.status}${e.code !== undefined ? `, code ${e.code}` : ''}${e.subcode !== undefined ? `/${e.subcode}` : ''}${e.message ? `: ${e.message}` : ''}`;

/** Meta's tier names, as unique recipients in 24 hours (0: unlimited, as in lib/stages.ts). */
const tierSizes: Record<string, number> = {
  TIER_50: 50,
  TIER_250: 250,
  TIER_1K: 1000,
  TIER_2K: 2000,
  TIER_10K: 10_000,
  TIER_100K: 100_000,
  TIER_UNLIMITED: 0,
  UNLIMITED: 0,
};
const phoneSchema = z.object({
  display_phone_number: z.string().optional(),
  quality_rating: z.string().optional(),
  // Meta replaced the number's messaging_limit_tier by the portfolio's limit in 2025; either may answer.
  whatsapp_business_manager_messaging_limit: z.string().optional(),
  messaging_limit_tier: z.string().optional(),
});

const tokenFix = (stage: string) =>
  `Create a system-user token in Meta Business Manager (permissions whatsapp_business_messaging and whatsapp_business_management, no expiry) and put it as whatsappToken in the provider secret of ${stage} (docs/RUNBOOK.md, "Secrets: set and rotate").`;

/** The WhatsApp number (token, id, quality, messaging limit) and, with the business account id, the templates. */
export async function checkWhatsapp(
  report: PreflightReport,
  fetchImpl: typeof fetch,
  config: StageConfig,
  secret: ProviderSecrets,
): Promise<void> {
  if (!usesWhatsapp(config) || isPlaceholder(secret.whatsappToken) || isPlaceholder(secret.whatsappPhoneNumberId))
    return;
  const id = encodeURIComponent(secret.whatsappPhoneNumberId);
  let result = await graphGet(
    fetchImpl,
    secret.whatsappToken,
    `${id}?fields=display_phone_number,quality_rating,whatsapp_business_manager_messaging_limit`,
  );
  if (!result.ok && 'error' in result && result.error.code === 100 && result.error.subcode !== 33) {
    // An API version that does not know the new field yet: ask for the old one.
    result = await graphGet(
      fetchImpl,
      secret.whatsappToken,
      `${id}?fields=display_phone_number,quality_rating,messaging_limit_tier`,
    );
  }
  if (!result.ok) {
    if ('unreachable' in result) {
      report.add({
        id: 'whatsapp.phoneNumber',
        severity: 'warning',
        problem: `Meta's Graph API did not answer (${result.unreachable}).`,
        why: 'The WhatsApp token, number and templates were not checked.',
        fix: 'Run the preflight again from a machine that reaches graph.facebook.com.',
      });
      return;
    }
    reportGraphRefusal(report, config, result.error);
    return;
  }
  const phone = phoneSchema.safeParse(result.body);
  const number = phone.success ? phone.data : {};
  const tierName = number.whatsapp_business_manager_messaging_limit ?? number.messaging_limit_tier;
  report.pass(
    `WhatsApp number ${number.display_phone_number ?? '(no display number)'} answers (quality ${number.quality_rating ?? 'unknown'}, limit ${tierName ?? 'unknown'})`,
  );
  if (number.quality_rating === 'RED') {
    report.add({
      id: 'whatsapp.quality',
      severity: 'warning',
      problem: "The WhatsApp number's quality rating is RED.",
      why: 'Meta may lower the messaging limit or stop the number: codes would go by SMS, or not at all.',
      fix: 'Read the reasons in WhatsApp Manager → Phone numbers → Insights; pause what users block or report (docs/RUNBOOK.md, "WhatsApp tier").',
    });
  }
  checkTier(report, config, tierName);
  await checkTemplates(report, fetchImpl, config, secret.whatsappToken);
}

function reportGraphRefusal(report: PreflightReport, config: StageConfig, error: GraphError): void {
  const what = describeGraphError(error);
  if (error.status === 401 || error.code === 190) {
    report.add({
      id: 'secret:provider.whatsappToken',
      severity: 'blocking',
      problem: `Meta refused the WhatsApp token of ${config.stage} (${what}).`,
      why: 'Every WhatsApp send is refused the same way: no code and no welcome goes by WhatsApp.',
      fix: tokenFix(config.stage),
    });
  } else if ((error.code === 100 && error.subcode === 33) || error.status === 404) {
    report.add({
      id: 'secret:provider.whatsappPhoneNumberId',
      severity: 'blocking',
      problem: `Meta does not know the whatsappPhoneNumberId of ${config.stage}, or the token may not use it (${what}).`,
      why: 'Every WhatsApp send is refused: no code and no welcome goes by WhatsApp.',
      fix: 'Copy the "Phone number ID" (not the phone number) from Meta\'s app → WhatsApp → API Setup into whatsappPhoneNumberId of the provider secret; the token\'s system user must be assigned to that WhatsApp account.',
    });
  } else {
    report.add({
      id: 'whatsapp.phoneNumber',
      severity: 'warning',
      problem: `Meta did not answer the read of the WhatsApp number (${what}).`,
      why: 'The WhatsApp number, tier and templates were not checked; the same refusal may meet every send.',
      fix: `Look the code up at https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes; a permission error means the token lacks whatsapp_business_management: ${tokenFix(config.stage)}`,
    });
  }
}

function checkTier(report: PreflightReport, config: StageConfig, tierName: string | undefined): void {
  if (!tierName) return;
  const actual = tierSizes[tierName];
  const setting = config.messaging.whatsappTier.uniqueRecipientsPer24h;
  if (actual === undefined || actual === setting) return;
  const size = (n: number) => (n === 0 ? Infinity : n);
  // The largest tier the setting can name that Meta's limit covers.
  const fitting = [...whatsappTiers].filter((t) => size(t) <= size(actual)).sort((a, b) => size(b) - size(a))[0];
  const field = 'messaging.whatsappTier.uniqueRecipientsPer24h';
  report.add({
    id: field,
    severity: 'warning',
    problem: `Meta's messaging limit is ${tierName}; ${field} of ${config.stage} says ${setting === 0 ? 'unlimited (0)' : setting}.`,
    why:
      size(setting) > size(actual)
        ? 'The code request sends to more new numbers than Meta allows: past the real limit WhatsApp refuses, and those codes arrive late (by the SMS fallback) or not at all.'
        : 'Codes go by SMS (paid, and slower) to numbers WhatsApp would still carry, and the tier alarm fires early.',
    fix:
      fitting === undefined
        ? `No setting fits ${tierName}: set ${field} to 250 and raise the limit in WhatsApp Manager (docs/RUNBOOK.md, "WhatsApp tier").`
        : `Set ${field} to ${fitting} for ${config.stage} in lib/stages.ts and deploy (npx cdk deploy -c stage=${config.stage} --all).`,
  });
}

const templatesSchema = z.object({
  data: z.array(z.object({ name: z.string(), language: z.string(), status: z.string().optional() })).default([]),
});

/** The templates the stage sends, each with the language it is sent in. */
function neededTemplates(config: StageConfig) {
  const { whatsapp, messaging } = config;
  const otpOnlyByWhatsapp = messaging.otpChannels === 'whatsapp';
  const needed = [
    {
      name: whatsapp.authTemplate,
      language: whatsapp.authTemplateLanguage,
      use: 'the code',
      severity: otpOnlyByWhatsapp ? ('blocking' as const) : ('warning' as const),
      why: otpOnlyByWhatsapp
        ? 'Every code request fails at WhatsApp: nobody can apply.'
        : 'Every code fails at WhatsApp and goes by the SMS fallback instead (slower, paid).',
    },
    ...(['en', 'ta'] as const).map((page) => ({
      ...whatsapp.welcomeTemplates[page],
      use: `the ${page === 'en' ? 'English' : 'Tamil'} welcome`,
      severity: 'warning' as const,
      why: 'Every welcome message in that language fails and ends in the dead-letter queue.',
    })),
  ];
  const decisions = messaging.decisionNotices;
  if (decisions.enabled && decisions.whatsappTemplates) {
    for (const decision of ['approved', 'rejected'] as const) {
      const template = decisions.whatsappTemplates[decision];
      for (const language of Object.values(template.languages)) {
        needed.push({
          name: template.name,
          language,
          use: `the ${decision} notice`,
          severity: 'warning',
          why: 'Those decision notices fail at WhatsApp and end in the dead-letter queue.',
        });
      }
    }
  }
  const withdrawals = messaging.withdrawalConfirmations;
  if (withdrawals.enabled && messaging.otpChannels !== 'sms') {
    for (const language of new Set(Object.values(withdrawals.whatsappTemplate.languages))) {
      needed.push({
        name: withdrawals.whatsappTemplate.name,
        language,
        use: 'the withdrawal confirmation',
        severity: 'warning',
        why: 'Applicants who withdraw get no confirmation at WhatsApp: it goes by SMS where the stage has the template, else it ends in the dead-letter queue.',
      });
    }
  }
  // Grievance answers (issue 21) are always on: an answer is owed.
  const grievance = messaging.grievanceAnswers.whatsappTemplate;
  if (messaging.otpChannels !== 'sms') {
    for (const language of new Set(Object.values(grievance.languages))) {
      needed.push({
        name: grievance.name,
        language,
        use: 'the answer to a grievance',
        severity: 'warning',
        why: 'Answers to grievances fail at WhatsApp: they go by SMS where the stage has the template, else they end in the dead-letter queue and the applicant hears nothing.',
      });
    }
  }
  return needed;
}

async function checkTemplates(
  report: PreflightReport,
  fetchImpl: typeof fetch,
  config: StageConfig,
  token: string,
): Promise<void> {
  const waba = config.whatsapp.businessAccountId;
  const needed = neededTemplates(config);
  if (!waba) {
    report.add({
      id: 'whatsapp.businessAccountId',
      severity: 'warning',
      problem: `whatsapp.businessAccountId is not set for ${config.stage}: the templates (${[...new Set(needed.map((t) => t.name))].join(', ')}) were not checked.`,
      why: 'A template that is not approved in the language the stage sends fails every message it carries (error 132001).',
      fix: `Set whatsapp.businessAccountId for ${config.stage} in lib/stages.ts to the "WhatsApp Business Account ID" that WhatsApp Manager shows (Business settings → Accounts → WhatsApp accounts); it is no secret, and only the preflight reads it (no deploy needed).`,
    });
    return;
  }
  const found = new Map<string, string | undefined>();
  for (const name of new Set(needed.map((t) => t.name))) {
    const result = await graphGet(
      fetchImpl,
      token,
      `${encodeURIComponent(waba)}/message_templates?name=${encodeURIComponent(name)}&fields=name,language,status&limit=100`,
    );
    if (!result.ok) {
      report.add({
        id: 'whatsapp.businessAccountId',
        severity: 'warning',
        problem: `Meta did not list the templates of business account ${waba} (${'error' in result ? describeGraphError(result.error) : result.unreachable}).`,
        why: 'The templates were not checked.',
        fix: `Check whatsapp.businessAccountId of ${config.stage} in lib/stages.ts against WhatsApp Manager, and that the token has whatsapp_business_management on that account.`,
      });
      return;
    }
    const templates = templatesSchema.safeParse(result.body);
    for (const t of templates.success ? templates.data.data : []) {
      if (t.name === name) found.set(`${t.name}/${t.language}`, t.status);
    }
  }
  let approved = 0;
  for (const t of needed) {
    const status = found.get(`${t.name}/${t.language}`);
    if (status === 'APPROVED') {
      approved++;
      continue;
    }
    report.add({
      id: `whatsapp.template.${t.name}.${t.language}`,
      severity: t.severity,
      problem:
        status === undefined
          ? `The WhatsApp template ${t.name} in ${t.language} (${t.use}) does not exist in business account ${waba}.`
          : `The WhatsApp template ${t.name} in ${t.language} (${t.use}) is ${status}, not APPROVED.`,
      why: t.why,
      fix: `In WhatsApp Manager → Message templates, ${status === undefined ? 'create' : 'fix and resubmit'} ${t.name} in language ${t.language} and wait for APPROVED; or set the name and language the stage uses in lib/stages.ts.`,
    });
  }
  if (approved > 0)
    report.pass(`${approved} of ${needed.length} WhatsApp templates approved in the languages the stage sends`);
}
