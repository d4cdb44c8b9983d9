import * as v from 'valibot';
import { applicationSourceEntries } from '../../rules/campaigns';
import { issuePath } from '../../rules/schema';

// The automation workflow's webhook: each application, as the spec's payload plus
// `application_id`, POSTed as JSON with HTTP basic auth. Callers see typed failures;
// the URL and the credentials never appear in an error.

export interface WebhookConfig {
  /** Empty means "not configured": every delivery fails, so nothing is silently dropped. */
  readonly url: string;
  readonly username: string;
  readonly password: string;
  readonly timeoutMs: number;
}

export type WebhookFailure = 'not-configured' | 'timeout' | 'network' | 'http';

export class WebhookError extends Error {
  constructor(
    readonly failure: WebhookFailure,
    readonly status?: number,
  ) {
    super(`Webhook delivery failed: ${failure}${status !== undefined ? ` (HTTP ${status})` : ''}`);
    this.name = 'WebhookError';
  }
}

/** What the stored application item must hold for the webhook; parsed, never cast. */
const storedApplicationSchema = v.object({
  id: v.pipe(v.string(), v.minLength(1)),
  phone_number: v.pipe(v.string(), v.minLength(1)),
  alternate_phone_number: v.optional(v.string()),
  name: v.string(),
  email: v.optional(v.string()),
  gender: v.string(),
  date_of_birth: v.string(),
  revenue_district: v.string(),
  assembly_constituency: v.string(),
  education: v.string(),
  specialization: v.optional(v.string()),
  occupation: v.string(),
  address: v.optional(v.string()),
  is_already_member: v.boolean(),
  motivation: v.string(),
  application_status: v.string(),
  submitted_at: v.string(),
  updated_at: v.optional(v.string()),
  ...applicationSourceEntries,
  member_number: v.optional(v.string()),
});

/**
 * The webhook body: the spec's application fields (no index keys, no consent record) plus
 * `application_id`, and where the applicant came from (campaign, UTM values, referrer).
 */
export interface WebhookPayload {
  readonly id: string;
  readonly application_id: string;
  readonly phone_number: string;
  readonly alternate_phone_number: string | null;
  readonly name: string;
  readonly email: string | null;
  readonly gender: string;
  readonly date_of_birth: string;
  readonly revenue_district: string;
  readonly assembly_constituency: string;
  readonly education: string;
  readonly specialization: string | null;
  readonly occupation: string;
  readonly address: string | null;
  readonly is_already_member: boolean;
  /** Not asked any more; always false so that existing consumers keep working. */
  readonly want_to_volunteer: false;
  readonly want_to_join_and_volunteer: false;
  readonly motivation: string;
  readonly application_status: string;
  readonly submitted_at: string;
  readonly updated_at: string;
  /** Where the applicant came from (issue 19), frozen at submit; null when not known. */
  readonly campaign_code: string | null;
  readonly campaign_id: string | null;
  readonly utm_source: string | null;
  readonly utm_medium: string | null;
  readonly utm_campaign: string | null;
  /** The referring member's application id. */
  readonly referrer_id: string | null;
  /** Given on the first approval (issue 20); null before, so at submit it is null. */
  readonly member_number: string | null;
}

/** Builds the webhook body from a stored application item; throws when the item lacks a field. */
export function applicationWebhookPayload(item: unknown): WebhookPayload {
  const result = v.safeParse(storedApplicationSchema, item);
  if (!result.success) {
    // Field names only: the values are personal data.
    throw new Error(`Stored application is missing fields: ${result.issues.map(issuePath).join(', ')}`);
  }
  const a = result.output;
  return {
    id: a.id,
    application_id: a.id,
    phone_number: a.phone_number,
    alternate_phone_number: a.alternate_phone_number ?? null,
    name: a.name,
    email: a.email ?? null,
    gender: a.gender,
    date_of_birth: a.date_of_birth,
    revenue_district: a.revenue_district,
    assembly_constituency: a.assembly_constituency,
    education: a.education,
    specialization: a.specialization ?? null,
    occupation: a.occupation,
    address: a.address ?? null,
    is_already_member: a.is_already_member,
    want_to_volunteer: false,
    want_to_join_and_volunteer: false,
    motivation: a.motivation,
    application_status: a.application_status,
    submitted_at: a.submitted_at,
    updated_at: a.updated_at ?? a.submitted_at,
    campaign_code: a.campaign_code ?? null,
    campaign_id: a.campaign_id ?? null,
    utm_source: a.utm_source ?? null,
    utm_medium: a.utm_medium ?? null,
    utm_campaign: a.utm_campaign ?? null,
    referrer_id: a.referrer_id ?? null,
    member_number: a.member_number ?? null,
  };
}

/**
 * An erasure (issue 21): the application is gone, by a staff erasure, the retention job or
 * the applicant's withdrawal. Its id only: the receiver erases what it holds under it.
 */
export interface WebhookDeletedEvent {
  readonly event: 'deleted';
  readonly application_id: string;
}

export interface WebhookClient {
  /** Resolves with the HTTP status of a 2xx answer; anything else throws a WebhookError. */
  deliver(payload: WebhookPayload | WebhookDeletedEvent): Promise<{ status: number }>;
}

export function makeWebhookClient(config: WebhookConfig, fetchImpl: typeof fetch = fetch): WebhookClient {
  return {
    async deliver(payload) {
      if (!config.url) throw new WebhookError('not-configured');
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (config.username || config.password) {
        headers.authorization = `Basic ${Buffer.from(`${config.username}:${config.password}`, 'utf8').toString('base64')}`;
      }
      let response: Response;
      try {
        response = await fetchImpl(config.url, {
          method: 'POST',
          headers,
          body: JSON.stringify(payload),
          // A redirect is an answer we do not understand, and following it could carry
          // the credentials elsewhere: it counts as a failure.
          redirect: 'manual',
          signal: AbortSignal.timeout(config.timeoutMs),
        });
      } catch (error) {
        const name = (error as Error | undefined)?.name;
        throw new WebhookError(name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network');
      }
      // Read the answer so that the connection is released; its content is not needed,
      // and a broken body after the status line does not undo a delivery.
      await response.arrayBuffer().catch(() => undefined);
      if (response.status < 200 || response.status > 299) throw new WebhookError('http', response.status);
      return { status: response.status };
    },
  };
}
