import { isIP } from 'node:net';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { cameThroughFront } from './front-door';

// Behind CloudFront every request reaches the API from a CloudFront address, so the
// per-address limit would count one edge location's whole crowd as one client. CloudFront
// puts the viewer's own address in `CloudFront-Viewer-Address` ("198.51.100.10:46532",
// an IPv6 address likewise followed by ":port") when the origin request policy forwards
// it; a client cannot set it through CloudFront. A client that calls the API's own URL
// directly could, so the header is trusted only on a request that passed the front-door
// check (CloudFront's origin token, lambdas/lib/front-door.ts); in AWS mode no other
// request reaches a handler. Locally the API adapter stands where CloudFront does, and
// the header is taken as it comes.

/** The IP in a CloudFront-Viewer-Address value, or undefined when it is not one. */
export function parseViewerAddress(value: string | undefined): string | undefined {
  if (!value || value.length > 64) return undefined;
  const bracketed = /^\[([^\]]+)\]:\d{1,5}$/.exec(value);
  const ip = bracketed ? bracketed[1] : value.slice(0, Math.max(0, value.lastIndexOf(':')));
  return ip && isIP(ip) ? ip : undefined;
}

export interface ViewerAddressOptions {
  readonly mode: 'aws' | 'local';
}

/** The address a per-address limit, the captcha's remoteip and the logs should use. */
export function viewerAddress(event: APIGatewayProxyEventV2, options: ViewerAddressOptions): string {
  const headers = event.headers ?? {};
  const forwarded = parseViewerAddress(headers['cloudfront-viewer-address']);
  if (forwarded && (options.mode === 'local' || cameThroughFront(event))) return forwarded;
  return event.requestContext.http.sourceIp;
}
