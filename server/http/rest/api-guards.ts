import type { Context, MiddlewareHandler } from 'hono';
import type { PushService } from '../../pushes/push-service.js';
import { URL_TOKEN_PATTERN } from '../../pushes/url-token.js';
import { ServiceError } from '../../service-error.js';
import type { AppEnv } from '../app-env.js';
import type { RequestContext } from '../request-context.js';
import { openedProofsOf } from '../opened-proofs.js';
import { OPENED_PROOF_HEADER } from '../../pushes/linked/opened-proof.js';

/** What the v1 and v2 JSON APIs share around the push service calls. */

/** Credentials that were presented but found no account: 401, never an anonymous caller. */
export function rejectBadCredentials(ctx: RequestContext): void {
  if (ctx.badCredentials) throw new ServiceError('unauthorized', 'Invalid API token or email.');
}

/**
 * Every API endpoint but version: wrong credentials are 401, and anonymous use may be off.
 * Not an async function: it only checks, then hands on next()'s promise, so it adds no
 * promise and resumption of its own to each API request (Hono's compose awaits it either way,
 * and a throw here reaches the app's error handler as from an async one).
 */
export function apiAccess(pushes: PushService): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    const ctx = c.get('ctx');
    rejectBadCredentials(ctx);
    pushes.assertApiAccess(ctx);
    return next();
  };
}

/** A URL token from a path; anything that cannot be one is simply not found. */
export function urlToken(raw: string | undefined): string {
  if (!raw || !URL_TOKEN_PATTERN.test(raw)) throw new ServiceError('not_found', 'not-found');
  return raw;
}

/**
 * Show a push. Hono answers HEAD with the GET handler, and a HEAD (link checkers, scanners)
 * must not count a view, let alone use up the last one, without delivering anything.
 */
export async function showPush(c: Context<AppEnv>, pushes: PushService, token: string): Promise<Response> {
  if (c.req.method === 'HEAD') return c.json(await pushes.preview(c.get('ctx'), token));
  const { push, openedProof } = await pushes.retrieveWithProof({ ...c.get('ctx'), openedProofs: openedProofsOf(c) }, token, c.req.query('passphrase'));
  // Linked secrets: the proof that this client opened a push that another follows.
  if (openedProof) c.header(OPENED_PROOF_HEADER, openedProof);
  return c.json(push);
}
