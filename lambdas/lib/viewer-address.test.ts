import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { markThroughFront } from './front-door';
import { parseViewerAddress, viewerAddress } from './viewer-address';

const event = (headers: Record<string, string>) =>
  ({ headers, requestContext: { http: { sourceIp: '130.176.0.1' } } }) as unknown as APIGatewayProxyEventV2;

describe('viewer address', () => {
  it('reads CloudFront-Viewer-Address for IPv4 and IPv6', () => {
    expect(parseViewerAddress('198.51.100.10:46532')).toBe('198.51.100.10');
    expect(parseViewerAddress('2001:db8::8a2e:370:7334:46532')).toBe('2001:db8::8a2e:370:7334');
    expect(parseViewerAddress('[2001:db8::1]:443')).toBe('2001:db8::1');
    expect(parseViewerAddress('not an address:1')).toBeUndefined();
    expect(parseViewerAddress(undefined)).toBeUndefined();
  });

  it('in AWS, trusts the header only on a request that passed the front door', () => {
    const forwarded = { 'cloudfront-viewer-address': '198.51.100.10:46532' };
    expect(viewerAddress(event(forwarded), { mode: 'aws' })).toBe('130.176.0.1');
    const checked = event(forwarded);
    markThroughFront(checked);
    expect(viewerAddress(checked, { mode: 'aws' })).toBe('198.51.100.10');
  });

  it('locally, the adapter stands where CloudFront does', () => {
    expect(viewerAddress(event({ 'cloudfront-viewer-address': '203.0.113.5:1' }), { mode: 'local' })).toBe(
      '203.0.113.5',
    );
    expect(viewerAddress(event({}), { mode: 'local' })).toBe('130.176.0.1');
  });
});
