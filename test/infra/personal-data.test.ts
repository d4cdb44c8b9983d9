import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../lib/api-routes';
import { addMembershipStacks, stackNames } from '../../lib/constructs/membership-stacks';
import { loadStageConfig } from '../../lib/stages';

// Issue 14, items 4 and 9, in the prod stage's templates (bundling skipped: the code is
// not the point here). CloudFront's standard logs keep every query string, so no staff
// GET route takes a search term (names and numbers travel in a POST body); and staff
// cannot change the email the audit trail names them by.

type Json = Record<string, unknown>;
interface TemplateJson {
  readonly Resources: Record<string, { Type: string; Properties?: Json }>;
}

/** Query parameters that say nothing about a person: days, statuses, districts, paging, an export's id. */
// A campaign's id (issue 19) names a campaign, never a person.
const harmlessQuery = new Set(['from', 'to', 'status', 'district', 'campaign', 'limit', 'cursor', 'exportId']);

const config = loadStageConfig('prod');
let workDir: string;
let data: TemplateJson;
let app: TemplateJson;

beforeAll(() => {
  workDir = mkdtempSync(path.join(tmpdir(), 'membership-personal-data-'));
  const web = path.join(workDir, 'web');
  mkdirSync(web, { recursive: true });
  writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>test</title>');
  const cdk = new App({ outdir: path.join(workDir, 'cdk.out'), context: { 'aws:cdk:bundling-stacks': [] } });
  addMembershipStacks(cdk, config, web);
  const assembly = cdk.synth();
  const names = stackNames(config);
  data = assembly.getStackByName(names.data).template as TemplateJson;
  app = assembly.getStackByName(names.app).template as TemplateJson;
});

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

const ofType = (t: TemplateJson, type: string) => Object.values(t.Resources).filter((r) => r.Type === type);
const routeKeys = () => ofType(app, 'AWS::ApiGatewayV2::Route').map((r) => String(r.Properties?.RouteKey));

describe('search terms stay out of URLs (CloudFront logs every query string)', () => {
  it('gives every staff GET route of the API declared query parameters, none of them a search term', () => {
    const staffGets = routeKeys().filter((key) => key.startsWith('GET /api/admin/'));
    expect(staffGets.length).toBeGreaterThan(0);
    for (const key of staffGets) {
      const route = routes.find((r) => `${r.method} ${r.path}` === key);
      expect(route?.query, `${key} declares the query parameters it reads`).toBeDefined();
      for (const name of route!.query!)
        expect(harmlessQuery.has(name), `${key} takes '${name}' in its query`).toBe(true);
    }
  });

  it('lists and searches applications by POST, the term in the body; no GET list route remains', () => {
    const keys = routeKeys();
    expect(keys).toContain('POST /api/admin/applications/search');
    expect(keys).not.toContain('GET /api/admin/applications');
  });
});

describe('the audit trail names staff by an email they cannot change', () => {
  it('lets the SPA client write some attribute, never the email', () => {
    const [client] = ofType(data, 'AWS::Cognito::UserPoolClient');
    const writable = client?.Properties?.WriteAttributes as string[] | undefined;
    // An absent or empty list would let the client write every attribute.
    expect(writable?.length).toBeGreaterThan(0);
    expect(writable).not.toContain('email');
    expect(writable).not.toContain('email_verified');
  });
});
