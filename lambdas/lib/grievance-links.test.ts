import { describe, expect, it } from 'vitest';
import { parseGrievanceLink } from '../../rules/grievances';
import { cardKeysOf } from './card-keys';
import { grievanceLinksOf } from './grievance-links';

// The answer page's link (issue 21): only the stage's key makes one, the same id gives the
// same link, a changed MAC or id opens nothing, and a rotation keeps old links working.

const id = 'k7qm2xrtabcdefgh';
const secret = { current: 'grievance-test-secret-a', previous: '' };

describe('grievance links', () => {
  it('are the id and a MAC, the same every time, and open their ticket', () => {
    const links = grievanceLinksOf(secret);
    const link = links.linkOf(id);
    expect(parseGrievanceLink(link)?.id).toBe(id);
    expect(links.linkOf(id)).toBe(link);
    expect(links.idOfLink(link)).toBe(id);
  });

  it('open nothing with another MAC, another id, or another stage’s key', () => {
    const links = grievanceLinksOf(secret);
    const [, mac] = links.linkOf(id).split('.');
    const flipped = `${mac!.slice(0, -1)}${mac!.endsWith('A') ? 'B' : 'A'}`;
    expect(links.idOfLink(`${id}.${flipped}`)).toBeUndefined();
    expect(links.idOfLink(`k7qm2xrtabcdefgj.${mac}`)).toBeUndefined();
    expect(grievanceLinksOf({ current: 'another-stage', previous: '' }).idOfLink(links.linkOf(id))).toBeUndefined();
    expect(links.idOfLink(undefined)).toBeUndefined();
  });

  it('differ from the card link of the same string under the same secret', async () => {
    const card = (await cardKeysOf(secret)).linkOf(id);
    expect(grievanceLinksOf(secret).linkOf(id)).not.toBe(card);
  });

  it('made before a rotation still open after it; new ones are made with the new key', () => {
    const before = grievanceLinksOf(secret).linkOf(id);
    const after = grievanceLinksOf({ current: 'grievance-test-secret-b', previous: secret.current });
    expect(after.idOfLink(before)).toBe(id);
    expect(after.linkOf(id)).not.toBe(before);
  });
});
