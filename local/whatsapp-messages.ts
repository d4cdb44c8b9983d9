// The messages the WhatsApp sandbox accepts: Meta's request shape (zod), what Meta
// refuses for our known templates, and how an accepted message is recorded.
import { z } from 'zod';
import { type MetaError, metaErrors } from './whatsapp-errors';
import type { WhatsAppStatus } from './whatsapp-status-webhook';

export type SandboxMessageKind = 'otp' | 'welcome' | 'decision' | 'withdrawn' | 'grievance' | 'text' | 'template';

/** `accepted` until the first status callback; then as the callbacks say. */
type SandboxMessageStatus = 'accepted' | WhatsAppStatus;

export interface SandboxMessage {
  /** The `wamid.` id returned to the caller. */
  readonly id: string;
  readonly channel: 'whatsapp';
  readonly to: string;
  readonly kind: SandboxMessageKind;
  /** OTP templates: the code in the body parameter. */
  readonly code?: string;
  readonly template?: string;
  readonly language?: string;
  /** Text messages: the text; templates: the body parameters joined by a space. */
  readonly body?: string;
  /** Welcome template: the link of the header video. */
  readonly headerVideoLink?: string;
  /** Decision templates: which decision. */
  readonly decision?: 'approved' | 'rejected';
  /** A dynamic URL button's parameter (its `{{1}}`): the approval's card link `<serial>.<mac>`. */
  readonly buttonParameter?: string;
  /** The button's whole URL, where the sandbox knows the template's (the approval: `approvedButtonUrl`). */
  readonly buttonUrl?: string;
  readonly status: SandboxMessageStatus;
  /** Failed messages: Meta's error code. */
  readonly errorCode?: number;
  /** ISO time of acceptance. */
  readonly at: string;
}

export interface DecisionTemplates {
  readonly approved: string;
  readonly rejected: string;
  /** Languages each is approved in. Default `en`, `ta`. */
  readonly languages?: readonly string[];
  /**
   * The approved template's dynamic URL button as registered in WhatsApp Manager,
   * `https://<site>/card#{{1}}` (issue 20): then the approval must carry the button's
   * one parameter, as Meta requires. None: the approval has no button.
   */
  readonly approvedButtonUrl?: string;
}

/** The withdrawal's confirmation (issue 21): a utility template with no variable at all. */
export interface WithdrawalTemplate {
  readonly name: string;
  /** Languages it is approved in. Default `en`, `ta`. */
  readonly languages?: readonly string[];
}

const mediaSchema = z
  .object({ link: z.url().optional(), id: z.string().optional(), filename: z.string().optional() })
  .refine((media) => media.link !== undefined || media.id !== undefined, 'a media parameter needs a link or an id');

const parameterSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string().min(1) }),
  z.object({ type: z.literal('payload'), payload: z.string().min(1) }),
  z.object({ type: z.literal('coupon_code'), coupon_code: z.string().min(1) }),
  z.object({
    type: z.literal('currency'),
    currency: z.object({ fallback_value: z.string(), code: z.string(), amount_1000: z.number() }),
  }),
  z.object({ type: z.literal('date_time'), date_time: z.object({ fallback_value: z.string() }) }),
  z.object({ type: z.literal('image'), image: mediaSchema }),
  z.object({ type: z.literal('video'), video: mediaSchema }),
  z.object({ type: z.literal('document'), document: mediaSchema }),
]);

const componentSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('header'), parameters: z.array(parameterSchema) }),
  z.object({ type: z.literal('body'), parameters: z.array(parameterSchema) }),
  z.object({
    type: z.literal('button'),
    sub_type: z.enum(['url', 'quick_reply', 'copy_code', 'flow']),
    index: z.union([z.string().regex(/^\d+$/), z.number().int().min(0)]),
    parameters: z.array(parameterSchema),
  }),
]);

export const messageSchema = z.discriminatedUnion('type', [
  z.object({
    messaging_product: z.literal('whatsapp'),
    recipient_type: z.literal('individual').optional(),
    to: z.string().regex(/^\d{8,15}$/, 'to must be the recipient number in digits, with country code'),
    type: z.literal('template'),
    template: z.object({
      name: z.string().min(1),
      language: z.object({ code: z.string().min(2), policy: z.literal('deterministic').optional() }),
      components: z.array(componentSchema).optional(),
    }),
  }),
  z.object({
    messaging_product: z.literal('whatsapp'),
    recipient_type: z.literal('individual').optional(),
    to: z.string().regex(/^\d{8,15}$/, 'to must be the recipient number in digits, with country code'),
    type: z.literal('text'),
    text: z.object({ body: z.string().min(1).max(4096), preview_url: z.boolean().optional() }),
  }),
]);
export type OutgoingMessage = z.infer<typeof messageSchema>;
type Component = z.infer<typeof componentSchema>;
type Parameter = z.infer<typeof parameterSchema>;

export interface KnownTemplates {
  readonly auth: string;
  readonly welcome: string;
  readonly decisions: DecisionTemplates | undefined;
  readonly withdrawal?: WithdrawalTemplate;
  readonly grievance?: GrievanceTemplate;
}

/** A grievance's answer (issue 21): a utility template whose body takes the reference and the answer. */
export interface GrievanceTemplate {
  readonly name: string;
  /** Languages it is approved in. Default `en`, `ta`. */
  readonly languages?: readonly string[];
}

/** What Meta refuses of the grievance answer's template: its languages, two body parameters, their format. */
function checkGrievanceTemplate(message: Extract<OutgoingMessage, { type: 'template' }>, known: GrievanceTemplate) {
  const { name, components, language } = message.template;
  if (!(known.languages ?? ['en', 'ta']).includes(language.code))
    return metaErrors.templateLanguage(name, language.code);
  const body = component(components, 'body');
  if (components?.some((c) => c.type !== 'body') || texts(body?.parameters ?? []).length !== 2) {
    return metaErrors.templateParameters(
      `template ${name}: the body takes two text parameters (the reference and the answer)`,
    );
  }
  if (texts(body?.parameters ?? []).some((text) => /[\n\t]| {5}/.test(text)))
    return metaErrors.templateParameterFormat(name);
  return undefined;
}

function texts(parameters: readonly Parameter[]): string[] {
  return parameters.flatMap((p) => (p.type === 'text' ? [p.text] : []));
}

function component<T extends Component['type']>(
  components: readonly Component[] | undefined,
  type: T,
): Extract<Component, { type: T }> | undefined {
  return components?.find((c): c is Extract<Component, { type: T }> => c.type === type);
}

/** What Meta would refuse for our known templates (parameter counts, languages), else undefined. */
export function checkTemplate(message: OutgoingMessage, known: KnownTemplates): MetaError | undefined {
  if (message.type !== 'template') return undefined;
  const { name, components, language } = message.template;
  if (name === known.auth) {
    const body = texts(component(components, 'body')?.parameters ?? []);
    if (body.length !== 1) {
      return metaErrors.templateParameters(`template ${name}: the body takes exactly one text parameter (the code)`);
    }
    const button = component(components, 'button');
    if (!button || button.sub_type !== 'url' || texts(button.parameters).length !== 1) {
      return metaErrors.templateParameters(
        `template ${name}: a url button with one text parameter (the code) is required`,
      );
    }
  }
  if (name === known.welcome) {
    const header = component(components, 'header');
    if (!header?.parameters.some((p) => p.type === 'video')) {
      return metaErrors.templateParameters(`template ${name}: the header takes one video parameter`);
    }
  }
  const decisions = known.decisions;
  if (decisions && (name === decisions.approved || name === decisions.rejected)) {
    if (!(decisions.languages ?? ['en', 'ta']).includes(language.code))
      return metaErrors.templateLanguage(name, language.code);
    const withButton = name === decisions.approved && decisions.approvedButtonUrl !== undefined;
    if (components?.some((c) => c.type !== 'body' && !(withButton && c.type === 'button'))) {
      return metaErrors.templateParameters(`template ${name}: only body parameters`);
    }
    const button = component(components, 'button');
    if (withButton && (button?.sub_type !== 'url' || texts(button.parameters).length !== 1)) {
      return metaErrors.templateParameters(`template ${name}: a url button with one text parameter is required`);
    }
  }
  const withdrawal = known.withdrawal;
  if (withdrawal && name === withdrawal.name) {
    if (!(withdrawal.languages ?? ['en', 'ta']).includes(language.code))
      return metaErrors.templateLanguage(name, language.code);
    // Meta refuses parameters a template does not have (132000).
    if ((components ?? []).length > 0) return metaErrors.templateParameters(`template ${name}: it takes no parameters`);
  }
  if (known.grievance && name === known.grievance.name) return checkGrievanceTemplate(message, known.grievance);
  return undefined;
}

/** A url button's parameter and, with the template's registered URL, the whole URL. */
function buttonOf(components: readonly Component[] | undefined, registeredUrl: string | undefined) {
  const button = component(components, 'button');
  const parameter = button?.sub_type === 'url' ? texts(button.parameters)[0] : undefined;
  if (parameter === undefined) return {};
  return {
    buttonParameter: parameter,
    ...(registeredUrl !== undefined && { buttonUrl: registeredUrl.replace('{{1}}', parameter) }),
  };
}

export function record(id: string, message: OutgoingMessage, known: KnownTemplates, atMs: number): SandboxMessage {
  const at = new Date(atMs).toISOString();
  const common = { id, channel: 'whatsapp' as const, to: message.to, status: 'accepted' as const, at };
  if (message.type === 'text') return { ...common, kind: 'text', body: message.text.body };
  const { name, language, components } = message.template;
  const bodyTexts = texts(component(components, 'body')?.parameters ?? []);
  const base = {
    ...common,
    template: name,
    language: language.code,
    ...(bodyTexts.length > 0 && { body: bodyTexts.join(' ') }),
  };
  if (name === known.auth) return { ...base, kind: 'otp', code: bodyTexts[0] };
  if (name === known.welcome) {
    const video = component(components, 'header')?.parameters.find((p) => p.type === 'video');
    const link = video?.type === 'video' ? video.video.link : undefined;
    return { ...base, kind: 'welcome', ...(link !== undefined && { headerVideoLink: link }) };
  }
  if (name === known.decisions?.approved)
    return {
      ...base,
      kind: 'decision',
      decision: 'approved',
      ...buttonOf(components, known.decisions.approvedButtonUrl),
    };
  if (name === known.decisions?.rejected) return { ...base, kind: 'decision', decision: 'rejected' };
  if (name === known.withdrawal?.name) return { ...base, kind: 'withdrawn' };
  if (name === known.grievance?.name) return { ...base, kind: 'grievance' };
  return { ...base, kind: 'template' };
}
