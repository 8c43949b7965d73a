import { createHmac } from 'node:crypto';
import { safeEqual } from '../../crypto/secret-hash.js';

/**
 * Linked secrets (issue 35 item 3): a push B that `follows` a push A opens only for a recipient
 * who has opened A. Opening A hands the recipient a proof: `<A's storage id>.<HMAC of it under a
 * server key>`. The recipient page keeps it in an HttpOnly cookie scoped to /p/; an API client
 * gets it in the `Secret-Push-Opened` response header and sends it back in the same request
 * header (or tRPC's `opened_proofs`) when it retrieves B. The proof names A by its storage id (a
 * keyed hash, never its link), so holding it reveals nothing about A's secret or link; it is a
 * bearer proof: whoever holds it may open B (with B's link, passphrase and views as usual).
 */
export const OPENED_PROOF_HEADER = 'Secret-Push-Opened';
/** Most proofs one request may present (cookies and header together): bounded work per request. */
export const MAX_OPENED_PROOFS = 20;

export class OpenedProofs {
  constructor(private readonly key: Buffer) {}

  /** The proof that its holder opened the push stored under `storageId`. */
  of(storageId: string): string {
    return `${storageId}.${createHmac('sha256', this.key).update(`opened.${storageId}`).digest('base64url')}`;
  }

  /** Whether one of `given` proves that the push stored under `storageId` was opened. */
  holds(storageId: string, given: readonly string[] | undefined): boolean {
    if (!given?.length) return false;
    const expected = this.of(storageId);
    return given.slice(0, MAX_OPENED_PROOFS).some((p) => safeEqual(p, expected));
  }
}

/** The recipient page's cookie for a proof: one per opened push, named by a piece of its storage id. */
export function openedProofCookieName(proof: string): string {
  return `sp_opened_${proof.slice(1, 17).replace(/[^A-Za-z0-9_-]/g, '')}`;
}
