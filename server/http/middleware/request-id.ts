import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import type { AppEnv } from '../app-env.js';
import { requestHeader } from '../request-header.js';

/** What an incoming X-Request-Id may be: a proxy's id (UUID, hex, base64url…), never free text. */
const ACCEPTED = /^[A-Za-z0-9._:+=@\/-]{1,128}$/;

/**
 * Every request has an id, in its log line and in the `X-Request-Id` answer header (set by
 * requestFrame): the one a load balancer or client sent, when it is a plausible id, or a new
 * UUID. It ties a user's report, a proxy's log and ours together.
 */
export function assignRequestId(c: Context<AppEnv>): string {
  const given = requestHeader(c, 'x-request-id');
  const id = given && ACCEPTED.test(given) ? given : randomUUID();
  c.set('requestId', id);
  return id;
}
