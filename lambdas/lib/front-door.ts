import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { OriginTokens } from '../adapters/secrets';
import { sameHash } from './codes';

// One front door. The HTTP API's own endpoint (execute-api) is public, and a request
// sent there skips CloudFront and its web firewall. CloudFront adds `x-origin-verify`
// with the stage's origin token (Secrets Manager, lib/constructs/app-secrets.ts) to every
// API request; in AWS mode every HTTP handler refuses a request without it, before doing
// anything else. During a rotation the previous token is accepted too, so that no edge
// location that still sends the old one is refused (docs/RUNBOOK.md, "Rotating the origin token").
// Locally the API adapter is the front door and there is no token.

export const ORIGIN_HEADER = 'x-origin-verify';

/** The origin tokens to accept, or undefined where there is no front door to check (local mode). */
export type OriginTokensSource = (() => Promise<OriginTokens>) | undefined;

/** Requests that came through CloudFront: only their CloudFront-Viewer-Address is the viewer's. */
const throughFront = new WeakSet<object>();

export function markThroughFront(event: APIGatewayProxyEventV2): void {
  throughFront.add(event);
}

export function cameThroughFront(event: APIGatewayProxyEventV2): boolean {
  return throughFront.has(event);
}

/** True when the request carries the current or the previous origin token. */
export function carriesOriginToken(event: APIGatewayProxyEventV2, tokens: OriginTokens): boolean {
  const sent = event.headers?.[ORIGIN_HEADER];
  if (!sent) return false;
  return [tokens.current, tokens.previous].some((token) => token !== '' && sameHash(sent, token));
}
