import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { MAX_OPENED_PROOFS, OPENED_PROOF_HEADER, openedProofCookieName } from '../pushes/linked/opened-proof.js';
import type { AppEnv } from './app-env.js';
import { requestHeader } from './request-header.js';

const NO_PROOFS: readonly string[] = Object.freeze([]);
const OPENED_PROOF_HEADER_LOWER = OPENED_PROOF_HEADER.toLowerCase() as Lowercase<string>;

/**
 * Linked secrets over HTTP (pushes/linked/opened-proof.ts): the proofs a request carries, from
 * the recipient page's cookies and the API's `Secret-Push-Opened` header (several separated by
 * commas), at most MAX_OPENED_PROOFS.
 */
export function openedProofsOf(c: Context<AppEnv>): readonly string[] {
  // Most requests carry neither (every API view): no cookie parsing, no arrays built.
  if (requestHeader(c, 'cookie') === undefined && requestHeader(c, OPENED_PROOF_HEADER_LOWER) === undefined) return NO_PROOFS;
  const fromCookies = Object.entries(getCookie(c))
    .filter(([name]) => name.startsWith('sp_opened_'))
    .map(([, value]) => value);
  const fromHeader = (c.req.header(OPENED_PROOF_HEADER) ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return [...fromHeader, ...fromCookies].slice(0, MAX_OPENED_PROOFS);
}

/**
 * The recipient page keeps a proof for the browser session (no Max-Age: it ends when the browser
 * does), HttpOnly, sent only to the recipient pages (/p/), never to other sites (SameSite Lax).
 */
export function keepOpenedProof(c: Context<AppEnv>, proof: string | null): void {
  if (!proof) return;
  setCookie(c, openedProofCookieName(proof), proof, { path: '/p/', httpOnly: true, sameSite: 'Lax', secure: c.get('ctx').baseUrl.startsWith('https:') });
}
