import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { parseGrievanceLink } from '../../rules/grievances';
import { base64url } from '../../rules/member-card';
import type { CardKeySecret } from '../adapters/secrets';

// The link to a grievance's answer (issue 21), `<id>.<mac>` after `/grievance#` (`?#` in an
// SMS): an SMS cannot carry the answer itself (a DLT variable holds 30 characters), so the
// answer's SMS carries this link instead. The MAC is an HMAC of the ticket's id under a key
// derived from the stage's card secret by a label of its own (as the card links' key is,
// lambdas/lib/card-keys.ts), so that only the server makes a link and the id alone (in
// logs, the audit, the staff screen) opens nothing. The previous secret of a rotation
// still opens the links made with it.

const derive = (secret: string) => createHash('sha256').update(`membership-grievance-link-key-v1\0${secret}`).digest();
const macOf = (key: Buffer, id: string) =>
  createHmac('sha256', key).update(`grievance-link\0${id}`).digest().subarray(0, 16);

export interface GrievanceLinks {
  /** `<id>.<mac>` under the current key. */
  linkOf(id: string): string;
  /** The ticket's id of a link this stage made (current or previous key); undefined otherwise. Constant-time. */
  idOfLink(link: unknown): string | undefined;
}

export function grievanceLinksOf(secret: CardKeySecret): GrievanceLinks {
  const keys = [secret.current, ...(secret.previous ? [secret.previous] : [])].map(derive);
  return {
    linkOf: (id) => `${id}.${base64url.encode(macOf(keys[0]!, id))}`,
    idOfLink(link) {
      const parsed = parseGrievanceLink(link);
      if (!parsed) return undefined;
      const given = Buffer.from(base64url.decode(parsed.mac) ?? []);
      if (given.length !== 16) return undefined;
      // Every key is compared, whichever matches: the time says nothing of which.
      const matches = keys.map((key) => timingSafeEqual(given, macOf(key, parsed.id)));
      return matches.includes(true) ? parsed.id : undefined;
    },
  };
}
