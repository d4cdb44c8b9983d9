import middy from '@middy/core';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyEventV2WithJWTAuthorizer,
  APIGatewayProxyStructuredResultV2,
  Context,
} from 'aws-lambda';
import * as v from 'valibot';
import { type ApiErrorBody, type ErrorCode, errorMessages } from '../../rules/errors';
import { issuePath } from '../../rules/schema';
import { makeSecretsLoader, secretsEnvSchema } from '../adapters/secrets';
import { carriesOriginToken, markThroughFront, type OriginTokensSource } from './front-door';
import { logger } from './logger';
import { flushMetrics } from './metrics';

/** A failure the visitor or staff member can act on: mapped to a 4xx with a stable code. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly details: Omit<ApiErrorBody['error'], 'code' | 'message'> = {},
    message?: string,
  ) {
    super(message ?? errorMessages[code]);
    this.name = 'AppError';
  }
}

const statusByCode: Partial<Record<ErrorCode, number>> = {
  VALIDATION_FAILED: 400,
  INVALID_PHONE: 400,
  INVALID_PHONE_START: 400,
  UNDER_AGE: 400,
  CAPTCHA_FAILED: 400,
  OTP_INVALID: 400,
  OTP_EXPIRED: 400,
  OTP_TOO_MANY_ATTEMPTS: 400,
  VERIFICATION_REQUIRED: 401,
  OTP_NOT_FOUND: 404,
  NOT_FOUND: 404,
  CARD_NOT_FOUND: 404,
  NOT_A_MEMBER: 404,
  NO_APPLICATION: 404,
  APPLICATION_BUSY: 409,
  GRIEVANCE_NOT_OPEN: 409,
  ALREADY_REGISTERED: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  SEARCH_TOO_BROAD: 422,
  WHATSAPP_NOT_CONFIGURED: 502,
  WHATSAPP_SEND_FAILED: 502,
  WHATSAPP_INVALID_PHONE_NUMBER_ID: 502,
  NETWORK_ERROR: 502,
  WHATSAPP_UNDELIVERABLE: 502,
  WHATSAPP_BUSY: 503,
  SMS_NOT_CONFIGURED: 502,
  SMS_SEND_FAILED: 502,
  SMS_SWITCH_NOT_ALLOWED: 409,
  DELIVERY_HANDLE_INVALID: 400,
  WEBHOOK_SIGNATURE_INVALID: 401,
  SERVICE_BUSY: 503,
};

const baseHeaders = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
};

export function json(statusCode: number, body: unknown): APIGatewayProxyStructuredResultV2 {
  return { statusCode, headers: baseHeaders, body: JSON.stringify(body) };
}

function errorResponse(error: AppError): APIGatewayProxyStructuredResultV2 {
  const body: ApiErrorBody = { error: { code: error.code, message: error.message, ...error.details } };
  const response = json(statusByCode[error.code] ?? 500, body);
  if (error.details.retryAfterSeconds !== undefined) {
    response.headers = { ...response.headers, 'retry-after': String(error.details.retryAfterSeconds) };
  }
  return response;
}

const MAX_BODY_BYTES = 16 * 1024;

/** Parses and validates a JSON body; any failure is a 400 with field codes, never a 500. */
export function parseBody<T extends v.GenericSchema>(event: APIGatewayProxyEventV2, schema: T): v.InferOutput<T> {
  const raw = event.body
    ? event.isBase64Encoded
      ? Buffer.from(event.body, 'base64').toString('utf8')
      : event.body
    : '';
  if (Buffer.byteLength(raw) > MAX_BODY_BYTES) throw new AppError('PAYLOAD_TOO_LARGE');
  let value: unknown;
  try {
    value = raw === '' ? {} : JSON.parse(raw);
  } catch {
    throw new AppError('VALIDATION_FAILED');
  }
  const result = v.safeParse(schema, value);
  if (!result.success) throw new AppError('VALIDATION_FAILED', { fields: fieldCodes(result.issues) });
  return result.output;
}

/** Validates the query string; repeated keys arrive comma-joined, as API Gateway joins them. */
export function parseQuery<T extends v.GenericSchema>(event: APIGatewayProxyEventV2, schema: T): v.InferOutput<T> {
  const result = v.safeParse(schema, event.queryStringParameters ?? {});
  if (!result.success) throw new AppError('VALIDATION_FAILED', { fields: fieldCodes(result.issues) });
  return result.output;
}

/** A path parameter, bounded; a missing or odd one is a 404, as for an unknown id. */
export function pathParameter(event: APIGatewayProxyEventV2, name: string): string {
  const value = event.pathParameters?.[name];
  if (!value || value.length > 100 || !/^[\w-]+$/.test(value)) throw new AppError('NOT_FOUND');
  return value;
}

/** Field path -> stable code. Schemas name the code of a field error as its message. */
export function fieldCodes(issues: readonly v.BaseIssue<unknown>[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issuePath(issue) || '_';
    fields[key] ??= /^[A-Z_]+$/.test(issue.message) ? issue.message : 'INVALID';
  }
  return fields;
}

type Handler<E> = (event: E, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** In AWS mode, the origin secret this function was granted (every API function is). */
function stageOriginTokens(): OriginTokensSource {
  const env = v.safeParse(secretsEnvSchema, process.env);
  if (!env.success || env.output.APP_MODE !== 'aws') return undefined;
  return makeSecretsLoader(env.output).origin;
}

export interface HttpHandlerOptions {
  /** Where the accepted origin tokens come from; default: the stage's origin secret in AWS mode, none locally. */
  readonly originTokens?: OriginTokensSource;
}

/**
 * The one middleware chain of every HTTP handler: the front-door check (lambdas/lib/front-door.ts),
 * request-scoped logging and the mapping of errors to the API's error shape. Unknown errors
 * are logged by name only (messages can carry input) and answered with a generic 500.
 */
export function httpHandler<E extends APIGatewayProxyEventV2 | APIGatewayProxyEventV2WithJWTAuthorizer>(
  fn: Handler<E>,
  options: HttpHandlerOptions = { originTokens: stageOriginTokens() },
) {
  const { originTokens } = options;
  return middy<E, APIGatewayProxyStructuredResultV2>()
    .before(async (request) => {
      // Every line of the invocation carries Lambda's request id (function_request_id,
      // with the function's name and cold start) and API Gateway's (requestId, what the
      // access log and the client's error report show).
      if (request.context?.awsRequestId) logger.addContext(request.context);
      logger.appendKeys({ requestId: request.event.requestContext.requestId, route: request.event.routeKey });
      if (!originTokens) return;
      if (!carriesOriginToken(request.event, await originTokens())) {
        // Sent to the API's own endpoint, past CloudFront and its firewall: nothing is done for it.
        logger.warn('Request without the origin token refused');
        throw new AppError('FORBIDDEN');
      }
      markThroughFront(request.event);
    })
    .after(() => {
      logger.resetKeys();
      flushMetrics();
    })
    .onError((request) => {
      flushMetrics();
      const error = request.error;
      if (error instanceof AppError) {
        logger.resetKeys();
        request.response = errorResponse(error);
        return;
      }
      logger.error('Unhandled error', { errorName: error?.name ?? 'unknown' });
      logger.resetKeys();
      request.response = errorResponse(new AppError('INTERNAL'));
    })
    .handler(fn);
}
