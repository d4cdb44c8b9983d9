import { isIP } from 'node:net';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { sameHash } from './codes';

// Behind CloudFront every request reaches the API from a CloudFront address, so the
// per-address limit would count one edge location's whole crowd as one client. CloudFront
// puts the viewer's own address in `CloudFront-Viewer-Address` ("198.51.100.10:46532",
// an IPv6 address likewise followed by ":port") when the origin request policy forwards
// it; a client cannot set it through CloudFront. A client that calls the API's own URL
// directly could, so the header is trusted only beside the origin secret CloudFront adds
// (`x-origin-verify`, from the keys secret). Locally the API adapter stands where
// CloudFront does, and the header is taken as it comes.

/** The IP in a CloudFront-Viewer-Address value, or undefined when it is not one. */
export function parseViewerAddress(value: string | undefined): string | undefined {
  if (!value || value.length > 64) return undefined;
  const bracketed = /^\[([^\]]+)\]:\d{1,5}$/.exec(value);
  const ip = bracketed ? bracketed[1] : value.slice(0, Math.max(0, value.lastIndexOf(':')));
  return ip && isIP(ip) ? ip : undefined;
}

export interface ViewerAddressOptions {
  readonly mode: 'aws' | 'local';
  /** The origin secret CloudFront sends; empty or missing: never trust the header. */
  readonly originToken?: string;
}

/** The address a per-address limit, the captcha's remoteip and the logs should use. */
export function viewerAddress(event: APIGatewayProxyEventV2, options: ViewerAddressOptions): string {
  const headers = event.headers ?? {};
  const forwarded = parseViewerAddress(headers['cloudfront-viewer-address']);
  if (forwarded) {
    if (options.mode === 'local') return forwarded;
    const sent = headers['x-origin-verify'];
    if (options.originToken && sent && sameHash(sent, options.originToken)) return forwarded;
  }
  return event.requestContext.http.sourceIp;
}
